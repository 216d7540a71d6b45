// Owners: proofs of control (claims) and each listing's current owner, whose token (only its
// SHA-256 stored) acts for the listing. Founding seats, codes and the payments gate's feedback
// carry the owner domain, one seat or code per domain. Access tokens get their holder (who the
// token belongs to: a demo's caller, or the listing's owner). A trace deposit may be recorded
// without moving anything (an anonymous caller's mark). A listing gains what its owner may set.
import { sql, type Kysely, type Migration } from 'kysely';
import { ownerDomain } from '../platform/net/host-key.ts';

/** Fills `owner_domain` of a founding table's rows from their listings, the earliest row of each domain only (the unique index allows one). */
async function backfillDomains(k: Kysely<any>, table: 'founding_seats' | 'discount_codes', order: string): Promise<void> {
  const rows = (await k
    .selectFrom(table)
    .innerJoin('listings', 'listings.id', `${table}.listing_id`)
    .select([`${table}.listing_id as listing_id`, 'listings.url as url'])
    .orderBy(`${table}.${order}`)
    .execute()) as { listing_id: string; url: string }[];
  const seen = new Set<string>();
  for (const row of rows) {
    const domain = ownerDomain(row.url);
    if (seen.has(domain)) continue;
    seen.add(domain);
    await k.updateTable(table).set({ owner_domain: domain }).where('listing_id', '=', row.listing_id).execute();
  }
}

export const m0026 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('listing_claims')
      .addColumn('claim_hash', 'text', (c) => c.primaryKey())
      .addColumn('listing_id', 'text')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('proof', 'text', (c) => c.notNull())
      .addColumn('caller', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('consumed_at', 'text')
      .execute();
    await k.schema.createIndex('listing_claims_caller').on('listing_claims').columns(['caller', 'created_at']).execute();
    await k.schema.createIndex('listing_claims_expires').on('listing_claims').column('expires_at').execute();

    await k.schema
      .createTable('listing_owners')
      .addColumn('listing_id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('owner_domain', 'text', (c) => c.notNull())
      .addColumn('proof', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'text', (c) => c.notNull())
      .addColumn('checked_at', 'text', (c) => c.notNull())
      .addColumn('next_check_at', 'text', (c) => c.notNull())
      .addColumn('missing_since', 'text')
      .addColumn('lapsed_at', 'text')
      .execute();
    await k.schema.createIndex('listing_owners_domain').on('listing_owners').column('owner_domain').execute();
    await k.schema.createIndex('listing_owners_next_check').on('listing_owners').column('next_check_at').execute();

    // A product access token belongs to who took it: a demo's caller, or the listing's owner.
    await k.schema.alterTable('access_tokens').addColumn('holder', 'text').execute();
    await k
      .updateTable('access_tokens')
      .set({ holder: sql`'listing:' || listing_id` })
      .execute();
    await k.schema.dropIndex('access_tokens_live').execute();
    await k.schema.createIndex('access_tokens_live').on('access_tokens').columns(['listing_id', 'holder']).unique().where(sql.ref('revoked_at'), 'is', null).execute();

    // A demo belongs to who took it: one per listing and holder (the first one of each builds).
    await k.schema
      .createTable('funnel_demos_by_holder')
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('sku', 'text', (c) => c.notNull())
      .addColumn('kernel_id', 'text')
      .addColumn('composition_id', 'text')
      .addColumn('token_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('funnel_demos_pk', ['listing_id', 'holder'])
      .execute();
    await k
      .insertInto('funnel_demos_by_holder')
      .columns(['listing_id', 'holder', 'sku', 'kernel_id', 'composition_id', 'token_id', 'created_at'])
      .expression(k.selectFrom('funnel_demos').select(['listing_id', sql<string>`'listing:' || listing_id`.as('holder'), 'sku', 'kernel_id', 'composition_id', 'token_id', 'created_at']))
      .execute();
    await k.schema.dropTable('funnel_demos').execute();
    await k.schema.alterTable('funnel_demos_by_holder').renameTo('funnel_demos').execute();

    await k.schema.alterTable('founding_seats').addColumn('owner_domain', 'text').execute();
    await k.schema.alterTable('discount_codes').addColumn('owner_domain', 'text').execute();
    await backfillDomains(k, 'founding_seats', 'seat');
    await backfillDomains(k, 'discount_codes', 'created_at');
    await k.schema.createIndex('founding_seats_domain').on('founding_seats').column('owner_domain').unique().where(sql.ref('owner_domain'), 'is not', null).execute();
    await k.schema.createIndex('discount_codes_domain').on('discount_codes').column('owner_domain').unique().where(sql.ref('owner_domain'), 'is not', null).execute();
    await k.schema.alterTable('funnel_feedback').addColumn('owner_domain', 'text').execute();

    await k.schema
      .alterTable('trace_deposits')
      .addColumn('moves', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();

    await k.schema.alterTable('listings').addColumn('owner_name', 'text').execute();
    await k.schema.alterTable('listings').addColumn('owner_description', 'text').execute();
    await k.schema.alterTable('listings').addColumn('owner_website', 'text').execute();
    await k.schema.alterTable('listings').addColumn('unlisted_at', 'text').execute();
    await k.schema.alterTable('listings').addColumn('deleted_at', 'text').execute();
  },
});
