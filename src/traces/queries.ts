// Reads of the field beside store.ts: text matches, notes left on a subject, counts; and the
// endorsements table. Strength across channels is compared on decayed values in code, since
// log_key orders only within one channel (its half-life is part of it).
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { traceTables as q } from './tables.ts';
import { CHANNELS, decayed, type Channel } from './channels.ts';
import type { FieldEntry } from './store.ts';

const FIELD_COLUMNS = ['channel', 'subject_key', 'subject_kind', 'a', 'b', 'value', 'at_ms', 'deposits'] as const;

type Row = { channel: string; subject_key: string; subject_kind: string; a: string; b: string | null; value: number; at_ms: number; deposits: number };

const toEntry = (r: Row, nowMs: number): FieldEntry => ({
  channel: r.channel as Channel,
  subject_key: r.subject_key,
  subject_kind: r.subject_kind as FieldEntry['subject_kind'],
  a: r.a,
  b: r.b,
  value: decayed(Number(r.value), Number(r.at_ms), nowMs, r.channel as Channel),
  deposits: Number(r.deposits),
  last_at: new Date(Number(r.at_ms)).toISOString(),
});

/** Strongest first across channels (decayed values), at most `limit`. */
export const byStrength = (entries: FieldEntry[], limit: number): FieldEntry[] =>
  entries.sort((x, y) => y.value - x.value || x.subject_key.localeCompare(y.subject_key) || x.channel.localeCompare(y.channel)).slice(0, limit);

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const like = (pattern: string) => sql<string>`${pattern} escape '\\'`;

/**
 * The strongest capabilities whose name contains `text` (lower-cased), per channel an index walk in
 * strength order that stops at `limit` matches, then merged by decayed value.
 */
export async function capabilitiesMatching(ex: Executor, text: string, now: Date, limit: number, channel?: Channel): Promise<FieldEntry[]> {
  const pattern = likePattern(text.toLowerCase());
  const perChannel = await Promise.all(
    (channel ? [channel] : CHANNELS).map((c) =>
      q(ex).selectFrom('trace_field').select(FIELD_COLUMNS).where('channel', '=', c).where('subject_kind', '=', 'capability').where('a', 'like', like(pattern)).orderBy('log_key', 'desc').limit(limit).execute(),
    ),
  );
  return byStrength(
    perChannel.flat().map((r) => toEntry(r, now.getTime())),
    limit,
  );
}

/** How many subjects' notes a text search reads, newest first (a bound on the scan's result). */
const NOTED_SUBJECTS = 500;

/**
 * What traces say that contains `text` (sense_traces `q`): capabilities named with it, and every
 * subject with a note (a deposit's body) containing it, in the channel the note was left in;
 * strongest first. Ids are not text a trace says, so they never match.
 */
export async function fieldSaying(ex: Executor, text: string, now: Date, limit: number, channel?: Channel): Promise<FieldEntry[]> {
  const pattern = likePattern(text.toLowerCase());
  let noted = q(ex)
    .selectFrom('trace_deposits')
    .select((eb) => ['channel', 'subject_key', eb.fn.max('at_ms').as('last_ms')])
    .where(sql<string>`lower(body)`, 'like', like(pattern))
    .groupBy(['channel', 'subject_key'])
    .orderBy('last_ms', 'desc')
    .limit(NOTED_SUBJECTS);
  if (channel) noted = noted.where('channel', '=', channel);
  const [named, notes] = await Promise.all([capabilitiesMatching(ex, text, now, limit, channel), noted.execute()]);
  const wanted = new Set(notes.map((n) => `${n.channel} ${n.subject_key}`));
  const keys = [...new Set(notes.map((n) => n.subject_key))];
  const rows = keys.length ? await q(ex).selectFrom('trace_field').select(FIELD_COLUMNS).where('subject_key', 'in', keys).execute() : [];
  const saidIn = rows.filter((r) => wanted.has(`${r.channel} ${r.subject_key}`)).map((r) => toEntry(r, now.getTime()));
  const seen = new Set(named.map((e) => `${e.channel} ${e.subject_key}`));
  return byStrength([...named, ...saidIn.filter((e) => !seen.has(`${e.channel} ${e.subject_key}`))], limit);
}

/** The most recent bodies left on a subject (untrusted text, already cleaned and capped at deposit). */
export async function notesOn(ex: Executor, subjectKeyValue: string, limit: number): Promise<{ channel: Channel; body: string; intensity: number; at: string }[]> {
  const rows = await q(ex)
    .selectFrom('trace_deposits')
    .select(['channel', 'body', 'intensity', 'at'])
    .where('subject_key', '=', subjectKeyValue)
    .where('body', 'is not', null)
    .orderBy('at_ms', 'desc')
    .orderBy('id', 'desc') // deposits at one instant: the later insert first, on both engines
    .limit(limit)
    .execute();
  return rows.map((r) => ({ channel: r.channel as Channel, body: r.body!, intensity: Number(r.intensity), at: r.at }));
}

/** Subjects in the field per channel (the whole network). */
export async function fieldCounts(ex: Executor): Promise<Record<Channel, number>> {
  const rows = await q(ex)
    .selectFrom('trace_field')
    .select((eb) => ['channel', eb.fn.countAll<number>().as('n')])
    .groupBy('channel')
    .execute();
  const counts = Object.fromEntries(CHANNELS.map((c) => [c, 0])) as Record<Channel, number>;
  for (const r of rows) if ((CHANNELS as readonly string[]).includes(r.channel)) counts[r.channel as Channel] = Number(r.n);
  return counts;
}

/** Deposits since a time, in all or on some subjects. */
export async function depositCount(ex: Executor, sinceMs: number, subjectKeys?: string[]): Promise<number> {
  let sel = q(ex).selectFrom('trace_deposits').select((eb) => eb.fn.countAll<number>().as('n')).where('at_ms', '>=', sinceMs);
  if (subjectKeys) {
    if (subjectKeys.length === 0) return 0;
    sel = sel.where('subject_key', 'in', subjectKeys);
  }
  return Number((await sel.executeTakeFirstOrThrow()).n);
}

/** Records an endorsement unless this ordered pair already has one today: whether it counted. */
export async function recordEndorsement(trx: Executor, e: { from: string; to: string; day: string; depositor: string; at: string }): Promise<boolean> {
  const row = await q(trx)
    .insertInto('trace_endorsements')
    .values({ from_listing_id: e.from, to_listing_id: e.to, day: e.day, depositor: e.depositor, at: e.at })
    .onConflict((oc) => oc.columns(['from_listing_id', 'to_listing_id', 'day']).doNothing())
    .returning('day')
    .executeTakeFirst();
  return row !== undefined;
}

/** Endorsements a listing received (counted ones, all days). */
export async function endorsementsOf(ex: Executor, listingId: string): Promise<number> {
  const row = await q(ex).selectFrom('trace_endorsements').select((eb) => eb.fn.countAll<number>().as('n')).where('to_listing_id', '=', listingId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Drops counters of days before `day`: only today's bound anything. */
export async function pruneCounters(ex: Executor, beforeDay: string): Promise<void> {
  await q(ex).deleteFrom('trace_counters').where('day', '<', beforeDay).execute();
}
