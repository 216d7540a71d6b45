// Jobs carry a priority (0: someone is waiting, such as a newcomer's first probe; 1: routine) and a
// fairness group (the host a probe talks to), so claims take waiting work first and never more of
// one host's jobs than its cap. Probe state remembers since when a listing has been failing, so a
// listing that never recovers is retired from probing.
import type { Kysely, Migration } from 'kysely';

export const m0005 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema.alterTable('jobs').addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await k.schema.alterTable('jobs').addColumn('group_key', 'text').execute();
    await k.schema.createIndex('jobs_claim').on('jobs').columns(['kind', 'priority', 'due_at']).execute();
    await k.schema.alterTable('probe_state').addColumn('failing_since', 'text').execute();
  },
});
