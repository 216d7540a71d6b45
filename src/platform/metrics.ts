// Prometheus metrics (DESIGN.md stack: prom-client at /metrics). One registry per app, so tests
// and several apps in one process never share counters. Platform counts requests and jobs; a
// domain registers its own metrics on `registry` (see probe/metrics.ts).
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'rollcall_http_requests_total',
    help: 'HTTP requests answered, by route and status class',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: 'rollcall_http_request_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });
  readonly jobs = new Counter({
    name: 'rollcall_jobs_total',
    help: 'Leased jobs run, by kind and result (done, lost_lease, released, host_budget, db_unavailable: given back while the database was down, error: given back to run again later)',
    labelNames: ['kind', 'result'] as const,
    registers: [this.registry],
  });

  constructor(defaults = true) {
    if (defaults) collectDefaultMetrics({ register: this.registry, prefix: 'rollcall_' });
  }
}
