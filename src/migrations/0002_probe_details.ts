// Released migration: never changes (the schema history is append only).
import type { Kysely, Migration } from 'kysely';

export const m0002 = (): Migration => ({
  async up(k: Kysely<any>) {
    for (const [name, type] of [
      ['probe_detail', 'text'],
      ['probe_protocol', 'text'],
      ['probe_latency_ms', 'integer'],
      ['probe_report', 'text'],
    ] as const) {
      await k.schema.alterTable('listings').addColumn(name, type).execute();
    }
  },
});
