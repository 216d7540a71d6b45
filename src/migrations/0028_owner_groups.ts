// Owner domains follow the whole Public Suffix List, private section included: each tenant of shared
// hosting (`alice.github.io`) is an owner of its own, and the tenants of one shared host form an
// owner group (platform/net/host-key.ts). Every owner domain already stored is computed again from
// its listing's URL (owners, seats, codes and the feedback the payments gate counts), and seats,
// codes and that feedback gain the group. Splitting a domain into tenants never merges two, so the
// one-seat-per-domain indexes hold.
import type { Kysely, Migration } from 'kysely';
import { ownerDomain, ownerGroup } from '../platform/net/host-key.ts';

type Table = 'listing_owners' | 'founding_seats' | 'discount_codes' | 'funnel_feedback';

/** Sets each row's owner domain (and group, where the table has one) from its listing's URL. */
async function recompute(k: Kysely<any>, table: Table, key: string, withGroup: boolean): Promise<void> {
  const rows = (await k
    .selectFrom(table)
    .innerJoin('listings', 'listings.id', `${table}.listing_id`)
    .select([`${table}.${key} as key`, 'listings.url as url'])
    .where(`${table}.owner_domain`, 'is not', null)
    .execute()) as { key: string; url: string }[];
  for (const row of rows) {
    const domain = ownerDomain(row.url);
    await k
      .updateTable(table)
      .set({ owner_domain: domain, ...(withGroup ? { owner_group: ownerGroup(domain) } : {}) })
      .where(key, '=', row.key)
      .execute();
  }
}

export const m0028 = (): Migration => ({
  async up(k: Kysely<any>) {
    for (const table of ['founding_seats', 'discount_codes', 'funnel_feedback'] as const) {
      await k.schema.alterTable(table).addColumn('owner_group', 'text').execute();
    }
    await recompute(k, 'listing_owners', 'listing_id', false);
    await recompute(k, 'founding_seats', 'listing_id', true);
    await recompute(k, 'discount_codes', 'listing_id', true);
    await recompute(k, 'funnel_feedback', 'feedback_id', true);
    await k.schema.createIndex('founding_seats_group').on('founding_seats').column('owner_group').execute();
    await k.schema.createIndex('discount_codes_group').on('discount_codes').column('owner_group').execute();
  },
});
