// A probe's spellings of a listing's URL become that listing's aliases, unless another owns one.
import type { Executor } from '../../platform/db/executor.ts';
import { StaleRead } from '../../platform/db/failures.ts';
import { known, part, together, type Part } from '../../platform/db/together.ts';
import { endpointKey } from '../identity.ts';
import { listingTables as q } from '../tables.ts';

/** Who holds each spelling of `urls` that some listing holds (alias key -> listing id). */
export type SpellingsHeld = Map<string, string>;

/** The holders of `urls`' spellings, as a part of the caller's batch (platform/db/together.ts). */
export function spellingsHeldPart(trx: Executor, urls: string[]): Part<SpellingsHeld> {
  const keys = [...new Set(urls.map(endpointKey))];
  if (!keys.length) return known(new Map());
  return part(q(trx).selectFrom('listing_aliases').select(['key', 'listing_id']).where('key', 'in', keys), (rows) => new Map(rows.map((r) => [String(r.key), String(r.listing_id)])));
}

/** Another listing holding one of `urls`' spellings (this one is then its duplicate), from what spellingsHeldPart read. */
export function heldByOther(held: SpellingsHeld, id: string): string | undefined {
  for (const owner of held.values()) if (owner !== id) return owner;
  return undefined;
}

/**
 * Claims for listing `id` the spellings of `urls` nobody held when `held` was read, as a part of the
 * caller's batch (nothing to send when it holds them all, the usual re-probe). A spelling another
 * listing took since that read makes the part throw StaleRead: the transaction runs again and
 * finds this listing a duplicate. Call it only when heldByOther found none.
 */
export function claimSpellingsPart(trx: Executor, id: string, urls: string[], held: SpellingsHeld, now: string): Part<void> {
  const missing = [...new Set(urls.map(endpointKey))].filter((key) => !held.has(key));
  if (!missing.length) return known(undefined);
  const insert = q(trx)
    .insertInto('listing_aliases')
    .values(missing.map((key) => ({ key, listing_id: id, created_at: now })))
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key');
  return part(insert, (rows) => {
    if (rows.length < missing.length) throw new StaleRead('a spelling this probe reached was claimed by another listing meanwhile');
  });
}

/**
 * Claims the spellings a probe reached for listing `id` (its card location, its endpoint). When
 * another listing owns one of them already, claims nothing and returns that listing's id: this
 * one is its duplicate. Call it in the transaction that applies the probe.
 */
export async function claimSpellings(trx: Executor, id: string, urls: string[], now: string): Promise<string | undefined> {
  const [held] = await together(trx, [spellingsHeldPart(trx, urls)]);
  const other = heldByOther(held, id);
  if (other !== undefined) return other;
  await together(trx, [claimSpellingsPart(trx, id, urls, held, now)]);
  return undefined;
}
