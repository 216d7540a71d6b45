// Traces' SQL. A deposit appends to trace_deposits and folds into trace_field in one statement
// (INSERT ... ON CONFLICT DO UPDATE), so concurrent deposits on one subject never lose one. The
// field row's value is decayed to the newer of its time and the deposit's before adding.
import { sql } from 'kysely';
import { takesRowLocks, type Executor } from '../platform/db/executor.ts';
import { known, part, together, write, type Part } from '../platform/db/together.ts';
import { traceTables as q } from './tables.ts';
import { decayed, halfLifeMs, type Channel } from './channels.ts';
import type { SubjectKey } from './subjects.ts';
import { setTrailPart } from './trail-rank.ts';

export interface Deposit {
  channel: Channel;
  subject: SubjectKey;
  intensity: number;
  body: string | null;
  depositor: string;
  at: Date;
}

export interface DepositOptions {
  /**
   * false: the deposit is recorded (history, notes) but moves nothing: no field value, no rank.
   * For marks whose depositor has no standing to move them (an anonymous caller on a listing).
   */
  moves?: boolean;
}

export async function deposit(ex: Executor, d: Deposit, options: DepositOptions = {}): Promise<void> {
  const [, field] = await together(ex, depositParts(ex, d, options.moves ?? true));
  // Attraction on a listing moves its rank (the `trail` part), in the deposit's transaction.
  if (!field || d.channel !== 'attraction' || d.subject.kind !== 'listing') return;
  await setTrailPart(ex, d.subject.a, decayed(field.value, field.at_ms, d.at.getTime(), 'attraction'), d.at);
}

/**
 * Clears what the field holds on one listing (every channel) and its trail part: a listing relisted
 * anew after a delete starts without what was left on it before.
 */
export async function clearListingField(trx: Executor, listingId: string, now: Date): Promise<void> {
  await q(trx).deleteFrom('trace_field').where('subject_kind', '=', 'listing').where('a', '=', listingId).execute();
  await setTrailPart(trx, listingId, 0, now);
}

/** A field row's value and time (the value is as of `at_ms`). */
export interface FieldValue {
  value: number;
  at_ms: number;
}

/**
 * A deposit as parts of a batch (platform/db/together.ts): the deposit's row, and (when it moves
 * the field) the field's upsert, whose value is the field row after it (none when it does not move).
 */
export function depositParts(ex: Executor, d: Deposit, moves: boolean): [Part<void>, Part<FieldValue | undefined>] {
  const atMs = d.at.getTime();
  const hl = sql.lit(halfLifeMs(d.channel));
  const row = write(
    q(ex)
      .insertInto('trace_deposits')
      .values({ channel: d.channel, subject_key: d.subject.key, intensity: d.intensity, body: d.body, depositor: d.depositor, day: d.at.toISOString().slice(0, 10), at: d.at.toISOString(), at_ms: atMs, moves: moves ? 1 : 0 }),
  );
  if (!moves) return [row, known(undefined)];
  // new value = old * 2^(-max(0, at - old_at) / hl) + intensity, kept at the later time.
  const newValue = sql<number>`trace_field.value * power(2.0, -(case when excluded.at_ms > trace_field.at_ms then excluded.at_ms - trace_field.at_ms else 0 end) / ${hl}) + excluded.value`;
  const newAt = sql<number>`case when excluded.at_ms > trace_field.at_ms then excluded.at_ms else trace_field.at_ms end`;
  const upsert = q(ex)
    .insertInto('trace_field')
    .values({
      channel: d.channel,
      subject_key: d.subject.key,
      subject_kind: d.subject.kind,
      a: d.subject.a,
      b: d.subject.b,
      value: d.intensity,
      at_ms: atMs,
      log_key: Math.log2(d.intensity) + atMs / halfLifeMs(d.channel),
      deposits: 1,
    })
    .onConflict((oc) =>
      oc.columns(['channel', 'subject_key']).doUpdateSet({
        value: newValue,
        at_ms: newAt,
        log_key: sql<number>`ln(${newValue}) / ln(2.0) + (${newAt}) / ${hl}`,
        deposits: sql<number>`trace_field.deposits + 1`,
      }),
    )
    .returning(['value', 'at_ms']);
  return [row, part(upsert, (rows) => (rows[0] ? { value: Number(rows[0].value), at_ms: Number(rows[0].at_ms) } : undefined))];
}

/**
 * What a deposit of `intensity` at `atMs` makes of a field row (none yet: `undefined`), the same
 * sum the upsert above makes: for a caller that locked the row and must know the result before
 * the statement that writes it is sent.
 */
export function fieldAfter(before: FieldValue | undefined, intensity: number, atMs: number, channel: Channel): FieldValue {
  if (!before) return { value: intensity, at_ms: atMs };
  return { value: decayed(before.value, before.at_ms, atMs, channel) + intensity, at_ms: Math.max(atMs, before.at_ms) };
}

/** A subject's field row in a channel, row-locked until commit on PostgreSQL, as a part of a batch. */
export function lockedFieldPart(ex: Executor, channel: Channel, subject: SubjectKey): Part<FieldValue | undefined> {
  let sel = q(ex).selectFrom('trace_field').select(['value', 'at_ms']).where('channel', '=', channel).where('subject_key', '=', subject.key);
  if (takesRowLocks(ex)) sel = sel.forUpdate();
  return part(sel, (rows) => (rows[0] ? { value: Number(rows[0].value), at_ms: Number(rows[0].at_ms) } : undefined));
}

export interface FieldEntry {
  channel: Channel;
  subject_key: string;
  subject_kind: 'listing' | 'capability' | 'pair';
  a: string;
  b: string | null;
  /** Decayed to the read's `now`. */
  value: number;
  deposits: number;
  last_at: string;
}

type FieldRow = { channel: string; subject_key: string; subject_kind: string; a: string; b: string | null; value: number; at_ms: number; deposits: number };

const entry = (r: FieldRow, nowMs: number): FieldEntry => ({
  channel: r.channel as Channel,
  subject_key: r.subject_key,
  subject_kind: r.subject_kind as FieldEntry['subject_kind'],
  a: r.a,
  b: r.b,
  value: decayed(Number(r.value), Number(r.at_ms), nowMs, r.channel as Channel),
  deposits: Number(r.deposits),
  last_at: new Date(Number(r.at_ms)).toISOString(),
});

const FIELD_COLUMNS = ['channel', 'subject_key', 'subject_kind', 'a', 'b', 'value', 'at_ms', 'deposits'] as const;

/** The strongest subjects of a channel now, optionally of one kind (an index walk on log_key). */
export async function strongest(ex: Executor, channel: Channel, now: Date, limit: number, kind?: FieldEntry['subject_kind']): Promise<FieldEntry[]> {
  let sel = q(ex).selectFrom('trace_field').select(FIELD_COLUMNS).where('channel', '=', channel).orderBy('log_key', 'desc').limit(limit);
  if (kind) sel = sel.where('subject_kind', '=', kind);
  return (await sel.execute()).map((r) => entry(r, now.getTime()));
}

/** The field of given subjects (any channel unless one is given). */
export async function fieldOf(ex: Executor, keys: string[], now: Date, channel?: Channel): Promise<FieldEntry[]> {
  if (keys.length === 0) return [];
  let sel = q(ex).selectFrom('trace_field').select(FIELD_COLUMNS).where('subject_key', 'in', keys);
  if (channel) sel = sel.where('channel', '=', channel);
  return (await sel.execute()).map((r) => entry(r, now.getTime()));
}

/** The pair edges that touch a listing on a channel, strongest first. */
export async function edgesOf(ex: Executor, listingId: string, channel: Channel, now: Date, limit: number): Promise<FieldEntry[]> {
  const rows = await q(ex)
    .selectFrom('trace_field')
    .select(FIELD_COLUMNS)
    .where('channel', '=', channel)
    .where('subject_kind', '=', 'pair')
    .where((eb) => eb.or([eb('a', '=', listingId), eb('b', '=', listingId)]))
    .orderBy('log_key', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => entry(r, now.getTime()));
}

/** How many deposits a depositor made on a day (optionally on one subject and channel). */
export async function depositsOfDay(ex: Executor, depositor: string, day: string, on?: { subject_key: string; channel: Channel }): Promise<number> {
  let sel = q(ex).selectFrom('trace_deposits').select((eb) => eb.fn.countAll<number>().as('n')).where('depositor', '=', depositor).where('day', '=', day);
  if (on) sel = sel.where('subject_key', '=', on.subject_key).where('channel', '=', on.channel);
  return Number((await sel.executeTakeFirstOrThrow()).n);
}

/** Raw deposits since a time that moved the field (rates of gain), newest first. */
export async function depositsSince(ex: Executor, sinceMs: number, limit: number, channel?: Channel): Promise<{ channel: Channel; subject_key: string; intensity: number; depositor: string; at_ms: number }[]> {
  let sel = q(ex).selectFrom('trace_deposits').select(['channel', 'subject_key', 'intensity', 'depositor', 'at_ms']).where('at_ms', '>=', sinceMs).where('moves', '=', 1).orderBy('at_ms', 'desc').limit(limit);
  if (channel) sel = sel.where('channel', '=', channel);
  return (await sel.execute()).map((r) => ({ channel: r.channel as Channel, subject_key: r.subject_key, intensity: Number(r.intensity), depositor: r.depositor, at_ms: Number(r.at_ms) }));
}

/**
 * Trail strength of listings now (DESIGN.md "Rank": it joins the active order and breaks near-ties
 * in search and matching): the decayed attraction deposited on each listing. Listings without
 * traces are absent from the map (strength 0).
 */
export async function trailStrength(ex: Executor, listingIds: string[], now: Date): Promise<Map<string, number>> {
  const entries = await fieldOf(ex, listingIds.map((id) => `listing:${id}`), now, 'attraction');
  return new Map(entries.map((e) => [e.a, e.value]));
}
