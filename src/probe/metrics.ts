// The probe domain's metrics, registered on the app's registry.
import { Counter, Histogram, type Registry } from 'prom-client';

export class ProbeMetrics {
  readonly probes: Counter<'kind' | 'outcome'>;
  readonly probeSeconds: Histogram;
  readonly phaseSeconds: Histogram<'phase'>;
  constructor(registry: Registry) {
    this.probes = new Counter({
      name: 'rollcall_probes_total',
      help: 'Probes finished, by kind and outcome (live, or the failure reason)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    });
    this.probeSeconds = new Histogram({
      name: 'rollcall_probe_seconds',
      help: 'Duration of a whole probe',
      buckets: [0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60],
      registers: [registry],
    });
    this.phaseSeconds = new Histogram({
      name: 'rollcall_probe_phase_seconds',
      help: 'Duration of each phase of a probe (card, well_known, mcp, a2a, metadata)',
      labelNames: ['phase'] as const,
      buckets: [0.01, 0.05, 0.1, 0.3, 1, 3, 10, 30],
      registers: [registry],
    });
  }
}
