// Founding seats, discount codes and the payments gate's count (SPEC.md 1.4, 3.1, 8.3; DESIGN.md
// "Founding seats"). A seat is numbered by one conditional UPDATE of the counter row
// (`taken = taken + 1 WHERE taken < 100 RETURNING taken`): PostgreSQL re-checks the condition on
// the row a concurrent grant just committed, so seat numbers are 1..100, each once, and the 101st
// grant finds no row. The seat table's primary key (1..100, CHECK), unique listing and unique
// owner domain are the second guard. Codes are random, stored hashed, one per listing and one per
// owner domain (unique). An owner group (the tenants of one shared host, platform/net/host-key.ts
// ownerGroup) holds at most HOLDINGS_PER_GROUP seats and codes together.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { takesRowLocks, type Executor } from '../platform/db/executor.ts';
import { funnelTables as q } from './tables.ts';
import { FOUNDING_SEATS, LATER_PERCENT_OFF } from './deal.ts';

export type Holding =
  | { kind: 'seat'; seat: number; token_id: string; feedback_id: string; created_at: string }
  | { kind: 'code'; hint: string; percent_off: number; feedback_id: string; created_at: string; redeemed_at: string | null; revoked_at: string | null };

/** What a listing already holds of the founding deal, if anything. */
export async function holdingOf(ex: Executor, listingId: string): Promise<Holding | undefined> {
  const seat = await q(ex).selectFrom('founding_seats').selectAll().where('listing_id', '=', listingId).executeTakeFirst();
  if (seat) return { kind: 'seat', seat: Number(seat.seat), token_id: seat.token_id, feedback_id: seat.feedback_id, created_at: seat.created_at };
  const code = await q(ex).selectFrom('discount_codes').selectAll().where('listing_id', '=', listingId).executeTakeFirst();
  if (code) return { kind: 'code', hint: code.hint, percent_off: Number(code.percent_off), feedback_id: code.feedback_id, created_at: code.created_at, redeemed_at: code.redeemed_at, revoked_at: code.revoked_at };
  return undefined;
}

/**
 * Locks the counter row until commit (PostgreSQL; SQLite has one writer at a time): every grant
 * takes it before it looks at what an owner domain holds, so two listings of one domain never
 * both find "nothing held yet".
 */
export async function lockFoundingCounter(trx: Executor): Promise<void> {
  if (!takesRowLocks(trx)) return;
  await q(trx).selectFrom('founding_counter').select('taken').where('name', '=', 'seats').forUpdate().execute();
}

/** What a listing of the owner domain already holds (one seat or code per domain), and which listing holds it. */
export async function holdingOfDomain(ex: Executor, ownerDomain: string): Promise<(Holding & { listing_id: string }) | undefined> {
  const seat = await q(ex).selectFrom('founding_seats').select('listing_id').where('owner_domain', '=', ownerDomain).executeTakeFirst();
  const code = seat ? undefined : await q(ex).selectFrom('discount_codes').select('listing_id').where('owner_domain', '=', ownerDomain).executeTakeFirst();
  const listingId = seat?.listing_id ?? code?.listing_id;
  if (listingId === undefined) return undefined;
  const held = await holdingOf(ex, listingId);
  return held && { ...held, listing_id: listingId };
}

/** Seats and codes the owner domains of one owner group hold at most, together (tenants of a shared host are free to make). */
export const HOLDINGS_PER_GROUP = 3;

/** How many seats and codes the owner domains of `group` hold. */
export async function holdingsOfGroup(ex: Executor, group: string): Promise<number> {
  const seats = await q(ex).selectFrom('founding_seats').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_group', '=', group).executeTakeFirstOrThrow();
  const codes = await q(ex).selectFrom('discount_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_group', '=', group).executeTakeFirstOrThrow();
  return Number(seats.n) + Number(codes.n);
}

/** Takes the next founding seat: its number, or undefined when all are taken. Holds the counter row until commit. */
export async function takeSeatNumber(trx: Executor): Promise<number | undefined> {
  const row = await q(trx)
    .updateTable('founding_counter')
    .set({ taken: sql<number>`taken + 1` })
    .where('name', '=', 'seats')
    .where('taken', '<', FOUNDING_SEATS)
    .returning('taken')
    .executeTakeFirst();
  return row ? Number(row.taken) : undefined;
}

export async function insertSeat(trx: Executor, row: { seat: number; listing_id: string; feedback_id: string; token_id: string; owner_domain: string; owner_group: string; created_at: string }): Promise<void> {
  await q(trx).insertInto('founding_seats').values(row).execute();
}

const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32

/** A fresh code: RC25- and three groups of four (60 random bits). */
export function newCode(): string {
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += CODE_ALPHABET[b & 31];
  return `RC${LATER_PERCENT_OFF}-${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}`;
}

/** Codes compare upper-cased, without spaces. */
export const hashCode = (code: string): string => createHash('sha256').update(code.trim().toUpperCase().replace(/\s+/g, '')).digest('hex');

/** The code with its middle masked: enough to recognize it, not to use it. */
export const codeHint = (code: string): string => `${code.slice(0, 5)}****-****-${code.slice(-4)}`;

/** Issues the listing's code; returns the code text (shown once). */
export async function insertCode(trx: Executor, row: { listing_id: string; feedback_id: string; owner_domain: string; owner_group: string; created_at: string }): Promise<{ code: string; hint: string }> {
  const code = newCode();
  const hint = codeHint(code);
  await q(trx)
    .insertInto('discount_codes')
    .values({ code_hash: hashCode(code), listing_id: row.listing_id, hint, percent_off: LATER_PERCENT_OFF, feedback_id: row.feedback_id, owner_domain: row.owner_domain, owner_group: row.owner_group, created_at: row.created_at, redeemed_at: null, revoked_at: null })
    .execute();
  return { code, hint };
}

/**
 * Revokes the text of a listing's code (its owner changed: the code was shown to the owner before);
 * the listing keeps its code, and its next owner's founding feedback gets a new text.
 */
export async function revokeCode(ex: Executor, listingId: string, now: string): Promise<void> {
  await q(ex).updateTable('discount_codes').set({ revoked_at: now }).where('listing_id', '=', listingId).where('revoked_at', 'is', null).where('redeemed_at', 'is', null).execute();
}

/** A new text for a listing's revoked code (shown once); the code keeps its listing, domain and percent. */
export async function reissueCode(trx: Executor, listingId: string): Promise<{ code: string; hint: string }> {
  const code = newCode();
  const hint = codeHint(code);
  await q(trx).updateTable('discount_codes').set({ code_hash: hashCode(code), hint, revoked_at: null }).where('listing_id', '=', listingId).execute();
  return { code, hint };
}

export async function findCode(ex: Executor, code: string): Promise<{ listing_id: string; hint: string; percent_off: number; created_at: string; redeemed_at: string | null } | undefined> {
  const row = await q(ex).selectFrom('discount_codes').select(['listing_id', 'hint', 'percent_off', 'created_at', 'redeemed_at']).where('code_hash', '=', hashCode(code)).where('revoked_at', 'is', null).executeTakeFirst();
  return row && { ...row, percent_off: Number(row.percent_off) };
}

/**
 * A listing relisted anew after a delete (not restored for its domain's proven owner) holds no
 * seat or code any more. Its seat number stays taken (the counter is not given back, so numbers
 * are never reused); the owner domain may earn one again.
 */
export async function dropHoldings(trx: Executor, listingId: string): Promise<void> {
  await q(trx).deleteFrom('founding_seats').where('listing_id', '=', listingId).execute();
  await q(trx).deleteFrom('discount_codes').where('listing_id', '=', listingId).execute();
}

export interface FoundingCounts {
  seats_taken: number;
  codes_issued: number;
  codes_redeemed: number;
}

/** Seats taken is the counter's (a seat dropped with a deleted listing stays taken), codes are rows. */
export async function foundingCounts(ex: Executor): Promise<FoundingCounts> {
  const seats = await q(ex).selectFrom('founding_counter').select('taken as n').where('name', '=', 'seats').executeTakeFirstOrThrow();
  const codes = await q(ex)
    .selectFrom('discount_codes')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('redeemed_at').as('r')])
    .executeTakeFirstOrThrow();
  return { seats_taken: Number(seats.n), codes_issued: Number(codes.n), codes_redeemed: Number(codes.r) };
}

/** Records one real feedback item (once per item); `owner_domain` when it came with the listing's owner token. */
export async function tallyFeedback(trx: Executor, row: { feedback_id: string; kind: 'agent' | 'mcp'; listing_id: string | null; owner_domain: string | null; owner_group: string | null; created_at: string }): Promise<void> {
  await q(trx).insertInto('funnel_feedback').values(row).onConflict((oc) => oc.column('feedback_id').doNothing()).execute();
}

/**
 * The payments gate's count, by kind: the distinct owner domains of claimed listings that left
 * real feedback with their owner token (fifty paths of one site, or anonymous callers, count
 * once or not at all), each owner group counting for at most HOLDINGS_PER_GROUP of them.
 */
export async function gateCounts(ex: Executor): Promise<{ agent: number; mcp: number }> {
  const rows = await q(ex)
    .selectFrom('funnel_feedback')
    .select(['kind', 'owner_group', (eb) => eb.fn.count<number>('owner_domain').distinct().as('n')])
    .where('owner_domain', 'is not', null)
    .groupBy(['kind', 'owner_group'])
    .execute();
  const out = { agent: 0, mcp: 0 };
  for (const r of rows) if (r.kind === 'agent' || r.kind === 'mcp') out[r.kind] += Math.min(Number(r.n), HOLDINGS_PER_GROUP);
  return out;
}
