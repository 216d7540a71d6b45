// Inbound A2A: the tasks the A2A door answered, one row per task with its JSON.
import type { Kysely, Migration } from 'kysely';

export const m0018 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('a2a_tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('context_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('task', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('a2a_tasks_context').on('a2a_tasks').columns(['context_id', 'created_at']).execute();
    await k.schema.createIndex('a2a_tasks_updated').on('a2a_tasks').column('updated_at').execute();
  },
});
