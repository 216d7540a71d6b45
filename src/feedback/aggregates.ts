// Feedback's aggregate reads for the feedback envelope and the read surfaces: counts, averages and
// distributions over counted items (an identical body from one caller on one day counts once), and
// over the answer rows the survey stores. Every figure is one query over stored feedback.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { feedbackTables as q } from './tables.ts';
import { itemOf, type FeedbackItem } from './store.ts';
import { isThemeId, type ThemeId } from './themes.ts';

export interface FeedbackSummary {
  total: number;
  structured: number;
  with_answers: number;
  avg_rating: number | null;
  by_source: Record<string, number>;
  by_surface: { surface: string; count: number; avg_rating: number }[];
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Totals over counted items. */
export async function feedbackSummary(ex: Executor): Promise<FeedbackSummary> {
  const totals = await q(ex)
    .selectFrom('feedback_items')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('structured').as('structured'),
      eb.fn.avg<number>('rating').as('avg'),
      eb.fn.count<number>('answers').as('with_answers'),
    ])
    .where('counted', '=', 1)
    .executeTakeFirstOrThrow();
  const sources = await q(ex)
    .selectFrom('feedback_items')
    .select((eb) => ['source', eb.fn.countAll<number>().as('n')])
    .where('counted', '=', 1)
    .groupBy('source')
    .execute();
  const surfaces = await q(ex)
    .selectFrom('feedback_items')
    .select((eb) => ['surface', eb.fn.countAll<number>().as('n'), eb.fn.avg<number>('rating').as('avg')])
    .where('counted', '=', 1)
    .groupBy('surface')
    .execute();
  const n = Number(totals.n);
  const bySource: Record<string, number> = {};
  for (const r of sources.sort((a, b) => Number(b.n) - Number(a.n) || String(a.source).localeCompare(String(b.source)))) bySource[r.source ?? 'unspecified'] = (bySource[r.source ?? 'unspecified'] ?? 0) + Number(r.n);
  return {
    total: n,
    structured: Number(totals.structured ?? 0),
    with_answers: Number(totals.with_answers ?? 0),
    avg_rating: n ? round(Number(totals.avg)) : null,
    by_source: bySource,
    by_surface: surfaces
      .map((r) => ({ surface: r.surface, count: Number(r.n), avg_rating: round(Number(r.avg)) }))
      .sort((a, b) => b.count - a.count || a.surface.localeCompare(b.surface)),
  };
}

/** Counted items, newest first; `before` = an item id to page past (its created_at and id). */
export async function latestItems(ex: Executor, limit: number, before?: { created_at: string; id: string }): Promise<FeedbackItem[]> {
  let query = q(ex).selectFrom('feedback_items').selectAll().where('counted', '=', 1);
  if (before) query = query.where((eb) => eb.or([eb('created_at', '<', before.created_at), eb.and([eb('created_at', '=', before.created_at), eb('id', '<', before.id)])]));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(itemOf);
}

export async function findItem(ex: Executor, id: string): Promise<FeedbackItem | undefined> {
  const row = await q(ex).selectFrom('feedback_items').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? itemOf(row) : undefined;
}

/** The themes of the latest `items` counted items, most common first (ties by theme id). */
export async function recentThemeCounts(ex: Executor, items: number): Promise<{ theme: ThemeId; count: number }[]> {
  const recent = q(ex).selectFrom('feedback_items').select('id').where('counted', '=', 1).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(items);
  const rows = await q(ex)
    .selectFrom('feedback_themes')
    .select((eb) => ['theme', eb.fn.countAll<number>().as('n')])
    .where('feedback_id', 'in', recent)
    .groupBy('theme')
    .orderBy('n', 'desc')
    .orderBy('theme')
    .execute();
  return rows.filter((r) => isThemeId(r.theme)).map((r) => ({ theme: r.theme as ThemeId, count: Number(r.n) }));
}

/** Theme mentions and distinct callers per theme since a time (learning, pain points). */
export async function themeVotes(ex: Executor, sinceIso: string): Promise<{ theme: ThemeId; count: number; callers: number; last_at: string }[]> {
  const rows = await q(ex)
    .selectFrom('feedback_themes')
    .select((eb) => ['theme', eb.fn.countAll<number>().as('n'), eb.fn.count<number>('subject').distinct().as('callers'), eb.fn.max('created_at').as('last_at')])
    .where('created_at', '>', sinceIso)
    .groupBy('theme')
    .orderBy('n', 'desc')
    .orderBy('theme')
    .execute();
  return rows.filter((r) => isThemeId(r.theme)).map((r) => ({ theme: r.theme as ThemeId, count: Number(r.n), callers: Number(r.callers), last_at: String(r.last_at) }));
}

/** Per UTC day since a day: counted items, average rating, and theme mentions. */
export async function dailyFeedback(ex: Executor, sinceDay: string): Promise<{ day: string; items: number; avg_rating: number; themes: Partial<Record<ThemeId, number>> }[]> {
  const days = await q(ex)
    .selectFrom('feedback_items')
    .select((eb) => ['day', eb.fn.countAll<number>().as('n'), eb.fn.avg<number>('rating').as('avg')])
    .where('counted', '=', 1)
    .where('day', '>=', sinceDay)
    .groupBy('day')
    .orderBy('day')
    .execute();
  const themes = await q(ex)
    .selectFrom('feedback_themes')
    .select((eb) => [sql<string>`substr(created_at, 1, 10)`.as('day'), 'theme', eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', sinceDay)
    .groupBy([sql`substr(created_at, 1, 10)`, 'theme'])
    .execute();
  return days.map((d) => {
    const t: Partial<Record<ThemeId, number>> = {};
    for (const r of themes) if (r.day === d.day && isThemeId(r.theme)) t[r.theme] = Number(r.n);
    return { day: d.day, items: Number(d.n), avg_rating: round(Number(d.avg)), themes: t };
  });
}

export interface NumericStat {
  question: string;
  n: number;
  avg: number;
  min: number;
  max: number;
  zeros: number;
  /** Answers at or above 4 (a scale's "fixed" or "good"). */
  high: number;
  /** Answers at or below 2. */
  low: number;
}

/** Count, average, bounds and zeros of scale and amount answers, per question. */
export async function numericStats(ex: Executor, questions: readonly string[]): Promise<Map<string, NumericStat>> {
  if (!questions.length) return new Map();
  const rows = await q(ex)
    .selectFrom('feedback_answers')
    .select((eb) => [
      'question',
      eb.fn.countAll<number>().as('n'),
      eb.fn.avg<number>('num').as('avg'),
      eb.fn.min<number>('num').as('min'),
      eb.fn.max<number>('num').as('max'),
      eb.fn.sum<number>(sql<number>`case when num = 0 then 1 else 0 end`).as('zeros'),
      eb.fn.sum<number>(sql<number>`case when num >= 4 then 1 else 0 end`).as('high'),
      eb.fn.sum<number>(sql<number>`case when num <= 2 then 1 else 0 end`).as('low'),
    ])
    .where('question', 'in', [...questions])
    .where('num', 'is not', null)
    .groupBy('question')
    .execute();
  return new Map(
    rows.map((r) => [
      r.question,
      { question: r.question, n: Number(r.n), avg: round(Number(r.avg)), min: Number(r.min), max: Number(r.max), zeros: Number(r.zeros), high: Number(r.high), low: Number(r.low) },
    ]),
  );
}

/** How many items chose each option, per question (multi answers count each option chosen). */
export async function optionCounts(ex: Executor, questions: readonly string[]): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  if (!questions.length) return out;
  const rows = await q(ex)
    .selectFrom('feedback_answers')
    .select((eb) => ['question', 'value', eb.fn.countAll<number>().as('n')])
    .where('question', 'in', [...questions])
    .groupBy(['question', 'value'])
    .execute();
  for (const r of rows) {
    const m = out.get(r.question) ?? new Map<string, number>();
    m.set(r.value, Number(r.n));
    out.set(r.question, m);
  }
  return out;
}

/** Distinct items that answered any of `questions`. */
export async function answeredCount(ex: Executor, questions: readonly string[]): Promise<number> {
  if (!questions.length) return 0;
  const row = await q(ex)
    .selectFrom('feedback_answers')
    .select((eb) => eb.fn.count<number>('feedback_id').distinct().as('n'))
    .where('question', 'in', [...questions])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The latest counted items that answered any of `questions`, newest first. */
export async function latestAnswering(ex: Executor, questions: readonly string[], limit: number): Promise<FeedbackItem[]> {
  if (!questions.length) return [];
  const ids = q(ex).selectFrom('feedback_answers').select('feedback_id').where('question', 'in', [...questions]);
  const rows = await q(ex).selectFrom('feedback_items').selectAll().where('id', 'in', ids).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(itemOf);
}

