// The search index in /metrics: its size, how long it took to build at start, and how far the
// change-feed follower lags behind the newest change it has applied.
import { Gauge, type Registry } from 'prom-client';
import type { SearchIndex } from './index-runtime.ts';

export function registerSearchMetrics(registry: Registry, index: SearchIndex, buildMs: number): void {
  const registers = [registry];
  new Gauge({ name: 'rollcall_search_index_build_seconds', help: 'Time to build this instance\'s search index at start', registers }).set(buildMs / 1000);
  new Gauge({
    name: 'rollcall_search_index_documents',
    help: 'Documents in this instance\'s search index (Live listings and catalog entries)',
    registers,
    collect() {
      this.set(index.engine.size);
    },
  });
  new Gauge({
    name: 'rollcall_search_index_poll_age_seconds',
    help: 'Seconds since the search index last finished reading the change feed',
    registers,
    collect() {
      this.set(index.lastPollAt ? (Date.now() - index.lastPollAt) / 1000 : 0);
    },
  });
}
