// A fair claim reads the head of the due queue in (priority, due_at, id) order; with id in the
// index that read stops after the rows it needs instead of sorting every job that came due at the
// same moment (a bulk publish gives thousands one timestamp). Measured on SQLite, one claim among
// 100,000 due jobs: 16.7 ms without id in the index.
import type { Kysely, Migration } from 'kysely';

export const m0011 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema.createIndex('jobs_claim_order').on('jobs').columns(['kind', 'priority', 'due_at', 'id']).execute();
    await k.schema.dropIndex('jobs_claim').execute();
  },
});
