// Trail strength as a rank part (DESIGN.md "Rank": active order = rank_delta + probe score + trail
// strength; search breaks near-ties by rank). The part is the listing's decayed attraction, set when
// attraction is deposited on it and refreshed by a periodic task as it decays, changed only when it
// moved by TRAIL_MIN_CHANGE (so the change feed is not flooded with no-op updates).
import type { Executor } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import { setRankPart } from '../listings/rank-part.ts';
import { traceTables as q } from './tables.ts';
import { decayed } from './channels.ts';

export const TRAIL_PART = 'trail';
export const TRAIL_MIN_CHANGE = 0.01;

const rounded = (x: number) => Math.round(x * 1000) / 1000;

/** The trail part of a listing whose decayed attraction is `strength` (as a rank-parts record). */
export const trailPart = (strength: number): Record<string, number> => ({ [TRAIL_PART]: rounded(strength) });

/** Sets one listing's trail part to a strength already known (a deposit's upsert returned it). */
export function setTrailPart(ex: Executor, id: string, strength: number, now: Date): Promise<string[]> {
  return setRankPart(ex, new Map([[id, rounded(strength)]]), TRAIL_PART, iso(now), TRAIL_MIN_CHANGE);
}

/** Sets the trail part of `ids` to their decayed attraction at `now`. */
export async function refreshTrailParts(ex: Executor, ids: readonly string[], now: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  // Read here rather than through store.ts's trailStrength: store.ts calls this on every deposit.
  const rows = await q(ex).selectFrom('trace_field').select(['a', 'value', 'at_ms']).where('channel', '=', 'attraction').where('subject_key', 'in', ids.map((id) => `listing:${id}`)).execute();
  const strength = new Map(rows.map((r) => [r.a, decayed(Number(r.value), Number(r.at_ms), now.getTime(), 'attraction')]));
  return setRankPart(ex, new Map(ids.map((id) => [id, rounded(strength.get(id) ?? 0)])), TRAIL_PART, iso(now), TRAIL_MIN_CHANGE);
}

