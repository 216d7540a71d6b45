// One name key (listings/name-key.ts) for every name a listing shows; each claimed listing holds its
// name's key, unique in the database. Names that already collide are settled here: the earliest
// claim keeps its name; a later claim loses a display name it set, then shows its host if its
// card's name collides too; an unclaimed listing wearing a held name, or Rollcall's, shows its host.
import type { Kysely, Migration } from 'kysely';
import { nameKey, reservedNames } from '../listings/name-key.ts';

interface Row {
  id: string;
  name: string;
  owner_name: string | null;
}

export const m0032 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .alterTable('listings')
      .addColumn('name_key', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await k.schema.alterTable('listings').addColumn('name_withheld', 'text').execute();
    await k.schema.createIndex('listings_name_key').on('listings').column('name_key').execute();
    await k.schema
      .createTable('listing_names')
      .addColumn('name_key', 'text', (c) => c.primaryKey())
      .addColumn('listing_id', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    const rows = (await k.selectFrom('listings').select(['id', 'name', 'owner_name']).where('deleted_at', 'is', null).execute()) as Row[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of rows) await k.updateTable('listings').set({ name_key: nameKey(r.owner_name ?? r.name) }).where('id', '=', r.id).execute();
    const reserved = reservedNames({ operatorName: undefined });
    const held = new Map<string, string>();
    const claimed = (await k.selectFrom('listing_owners').select(['listing_id', 'claimed_at']).where('lapsed_at', 'is', null).orderBy('claimed_at').orderBy('listing_id').execute()) as { listing_id: string; claimed_at: string }[];
    for (const c of claimed) {
      const r = byId.get(c.listing_id);
      if (!r) continue;
      const free = (name: string) => nameKey(name) !== '' && !reserved(name) && !held.has(nameKey(name));
      if (r.owner_name !== null && !free(r.owner_name)) {
        await k.updateTable('listings').set({ owner_name: null, name_key: nameKey(r.name) }).where('id', '=', r.id).execute();
        r.owner_name = null;
      }
      const key = nameKey(r.owner_name ?? r.name);
      if (!free(r.owner_name ?? r.name)) {
        await k.updateTable('listings').set({ name_withheld: r.name }).where('id', '=', r.id).execute();
        continue;
      }
      held.set(key, r.id);
      await k.insertInto('listing_names').values({ name_key: key, listing_id: r.id, created_at: c.claimed_at }).execute();
    }
    const claimedIds = new Set(claimed.map((c) => c.listing_id));
    for (const r of rows) {
      if (claimedIds.has(r.id)) continue;
      const shown = r.owner_name ?? r.name;
      if (!reserved(shown) && !held.has(nameKey(shown))) continue;
      const cardKey = nameKey(r.name);
      await k
        .updateTable('listings')
        .set({ owner_name: null, name_key: cardKey, name_withheld: reserved(r.name) || held.has(cardKey) ? r.name : null })
        .where('id', '=', r.id)
        .execute();
    }
  },
});
