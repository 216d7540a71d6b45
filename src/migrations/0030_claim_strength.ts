// Claims pay for themselves and weaker ones yield: each claim counts its verifications; each place a
// proof can be read keeps its latest read, shared by every claimant within a window; an owner's
// row keeps the reads that answered without its proof (a weaker claim may take the listing only
// after two, a day apart) and when its claim replaced an earlier owner's.
import type { Kysely, Migration } from 'kysely';

export const m0030 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .alterTable('listing_claims')
      .addColumn('verifies', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    for (const column of ['absent_since', 'absent_at', 'changed_at']) {
      await k.schema.alterTable('listing_owners').addColumn(column, 'text').execute();
    }
    await k.schema
      .createTable('proof_reads')
      .addColumn('place', 'text', (c) => c.primaryKey())
      .addColumn('taken_at', 'text', (c) => c.notNull())
      .addColumn('read_at', 'text')
      .addColumn('result', 'text')
      .execute();
    await k.schema.createIndex('proof_reads_taken').on('proof_reads').column('taken_at').execute();
  },
});
