// The names claimed listings hold (name-key.ts keys), one key per listing and one listing per key,
// both unique in the database, so two instances naming two listings alike at once cannot both win.
// A listing whose name's key another listing holds (or Rollcall does) shows its host instead, with
// the name it would have shown kept as `name_withheld`, until the key is free again.
import type { Executor } from '../../platform/db/executor.ts';
import { part, type Part } from '../../platform/db/together.ts';
import { listingTables as q } from '../tables.ts';
import { nameKey, type ReservedNames } from '../name-key.ts';
import { updateListing } from './update-listing.ts';

/** What a probe's names meet: the listing holding each key asked, and the key `id` holds itself (if it is claimed). */
export interface NamesHeld {
  holders: Map<string, string>;
  own: string | undefined;
}

/** The holders of `keys` and the key `id` holds, as a part of the caller's batch (platform/db/together.ts). */
export function namesHeldPart(trx: Executor, id: string, keys: string[]): Part<NamesHeld> {
  const sel = q(trx)
    .selectFrom('listing_names')
    .select(['name_key', 'listing_id'])
    .where((eb) => (keys.length ? eb.or([eb('name_key', 'in', keys), eb('listing_id', '=', id)]) : eb('listing_id', '=', id)));
  return part(sel, (rows): NamesHeld => {
    const own = rows.find((r) => String(r.listing_id) === id);
    return { holders: new Map(rows.map((r) => [String(r.name_key), String(r.listing_id)])), own: own ? String(own.name_key) : undefined };
  });
}

/**
 * Makes `key` the name listing `id` holds (letting go of the one it held): false when another
 * listing holds it. The caller holds the listing's row lock.
 */
export async function holdName(trx: Executor, id: string, key: string, now: string): Promise<boolean> {
  const own = await q(trx).selectFrom('listing_names').select('name_key').where('listing_id', '=', id).executeTakeFirst();
  if (own?.name_key === key) return true;
  if (own) await q(trx).deleteFrom('listing_names').where('listing_id', '=', id).execute();
  const taken = await q(trx).insertInto('listing_names').values({ name_key: key, listing_id: id, created_at: now }).onConflict((oc) => oc.column('name_key').doNothing()).returning('listing_id').executeTakeFirst();
  return taken !== undefined;
}

/** Every other listing wearing `key` shows its host: the name is `holder`'s now. */
async function withholdWearers(trx: Executor, key: string, holder: string, now: string): Promise<void> {
  const wearers = await q(trx).selectFrom('listings').select(['id', 'name', 'owner_name']).where('name_key', '=', key).where('id', '!=', holder).where('deleted_at', 'is', null).execute();
  for (const w of wearers) {
    // A name an earlier owner set goes first; the card's name behind it is withheld if it is the same name.
    const cardWears = nameKey(w.name) === key;
    await updateListing(trx, w.id, { ...(w.owner_name !== null ? { owner_name: null } : {}), name_withheld: cardWears ? w.name : null }, now);
  }
}

export type NameProtection = 'held' | 'taken' | 'reserved';

/**
 * Protects the name claimed listing `id` shows (its owner's, else its card's): it holds the key, and
 * every other listing wearing it shows its host. 'taken' when another listing holds it, 'reserved'
 * for a name no listing may wear: the caller decides (a rename is refused; a new claim withholds).
 */
export async function protectName(trx: Executor, id: string, reserved: ReservedNames, now: string): Promise<NameProtection> {
  const row = await q(trx).selectFrom('listings').select(['name', 'owner_name', 'name_key']).where('id', '=', id).executeTakeFirst();
  if (!row || row.name_key === '') return 'held';
  if (reserved(row.owner_name ?? row.name)) return 'reserved';
  if (!(await holdName(trx, id, row.name_key, now))) return 'taken';
  await withholdWearers(trx, row.name_key, id, now);
  return 'held';
}

/**
 * A listing claimed no more (its claim lapsed, it was deleted) holds no name: listings that showed
 * their host because of it show their own names again.
 */
export async function releaseName(trx: Executor, id: string, now: string): Promise<void> {
  const held = await q(trx).deleteFrom('listing_names').where('listing_id', '=', id).returning('name_key').executeTakeFirst();
  if (!held) return;
  const waiting = await q(trx).selectFrom('listings').select('id').where('name_key', '=', held.name_key).where('name_withheld', 'is not', null).where('id', '!=', id).execute();
  for (const w of waiting) await updateListing(trx, w.id, { name_withheld: null }, now);
}

/** Who holds `key`, if anyone. */
export async function nameHolder(ex: Executor, key: string): Promise<string | undefined> {
  return (await q(ex).selectFrom('listing_names').select('listing_id').where('name_key', '=', key).executeTakeFirst())?.listing_id;
}
