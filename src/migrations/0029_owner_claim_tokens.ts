// A product token records the owner claim it was issued under, and an owner change ends it. An
// owner's live token issued before the listing's current claim (or for a listing whose claim lapsed
// or was never made) belongs to an earlier owner: it is revoked now; the rest take the current
// claim. A code's text can be revoked with its owner (the listing keeps its code).
import { sql, type Kysely, type Migration } from 'kysely';

export const m0029 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema.alterTable('access_tokens').addColumn('claim_id', 'text').execute();
    await k.schema.alterTable('discount_codes').addColumn('revoked_at', 'text').execute();
    const now = new Date().toISOString();
    const owners = (await k.selectFrom('listing_owners').select(['listing_id', 'token_id', 'claimed_at', 'lapsed_at']).execute()) as { listing_id: string; token_id: string; claimed_at: string; lapsed_at: string | null }[];
    const current = new Map(owners.filter((o) => o.lapsed_at === null).map((o) => [o.listing_id, o]));
    const live = (await k
      .selectFrom('access_tokens')
      .select(['id', 'listing_id', 'created_at'])
      .where('revoked_at', 'is', null)
      .where('holder', '=', sql`'listing:' || listing_id`)
      .execute()) as { id: string; listing_id: string; created_at: string }[];
    for (const token of live) {
      const owner = current.get(token.listing_id);
      if (owner && token.created_at >= owner.claimed_at) await k.updateTable('access_tokens').set({ claim_id: owner.token_id }).where('id', '=', token.id).execute();
      else await k.updateTable('access_tokens').set({ revoked_at: now }).where('id', '=', token.id).execute();
    }
  },
});
