// Feedback's SQL: storing an item with its themes, the once-a-day count of an identical body, and
// the reads other domains need (a caller's or a listing's feedback since a time, the most common
// themes of others' feedback).
import type { Executor } from '../platform/db/executor.ts';
import { feedbackTables as q, type FeedbackItemsTable } from './tables.ts';
import { isThemeId, type ThemeId } from './themes.ts';
import { question, SURVEY_VERSION, type Answers } from './survey.ts';

/** A stored feedback item (the SPEC.md 2.4 fields it carries, plus where it came from). */
export interface FeedbackItem {
  id: string;
  created_at: string;
  source: string | null;
  agent_name: string | null;
  sku: string | null;
  body: string;
  rating: number;
  tags: string[];
  audience: 'agent' | 'mcp' | null;
  meta: { surface: string; themes: ThemeId[]; counted: boolean; survey_version?: string };
  mode: 'ultra' | 'structured';
  structured: boolean;
  /** Survey answers (survey.ts), when any were given. */
  answers: Answers | null;
  listing_id: string | null;
  surface: string;
  subject: string;
  themes: ThemeId[];
  counted: boolean;
}

export interface NewFeedback {
  id: string;
  created_at: string;
  subject: string;
  listing_id: string | null;
  source: string | null;
  agent_name: string | null;
  sku: string | null;
  body: string;
  rating: number;
  tags: string[];
  audience: 'agent' | 'mcp' | null;
  surface: string;
  themes: ThemeId[];
  counted: boolean;
  mode: 'ultra' | 'structured';
  structured: boolean;
  answers: Answers | null;
}

const themesOf = (meta: string): ThemeId[] => {
  const parsed = JSON.parse(meta) as { themes?: unknown };
  return Array.isArray(parsed.themes) ? parsed.themes.filter((t): t is ThemeId => typeof t === 'string' && isThemeId(t)) : [];
};

export const itemOf = (r: FeedbackItemsTable): FeedbackItem => {
  const themes = themesOf(r.meta);
  const counted = Number(r.counted) === 1;
  const answers = r.answers ? (JSON.parse(r.answers) as Answers) : null;
  return {
    id: r.id,
    created_at: r.created_at,
    source: r.source,
    agent_name: r.agent_name,
    sku: r.sku,
    body: r.body,
    rating: Number(r.rating),
    tags: JSON.parse(r.tags) as string[],
    audience: r.audience as FeedbackItem['audience'],
    meta: { surface: r.surface, themes, counted, ...(answers ? { survey_version: (JSON.parse(r.meta) as { survey_version?: string }).survey_version ?? SURVEY_VERSION } : {}) },
    mode: r.mode === 'structured' ? 'structured' : 'ultra',
    structured: Number(r.structured) === 1,
    answers,
    listing_id: r.listing_id,
    surface: r.surface,
    subject: r.subject,
    themes,
    counted,
  };
};

export async function insertFeedback(trx: Executor, f: NewFeedback): Promise<FeedbackItem> {
  const row: FeedbackItemsTable = {
    id: f.id,
    created_at: f.created_at,
    day: f.created_at.slice(0, 10),
    subject: f.subject,
    listing_id: f.listing_id,
    source: f.source,
    agent_name: f.agent_name,
    sku: f.sku,
    body: f.body,
    rating: f.rating,
    tags: JSON.stringify(f.tags),
    audience: f.audience,
    surface: f.surface,
    mode: f.mode,
    structured: f.structured ? 1 : 0,
    meta: JSON.stringify({ surface: f.surface, themes: f.themes, counted: f.counted, ...(f.answers ? { survey_version: SURVEY_VERSION } : {}) }),
    counted: f.counted ? 1 : 0,
    answers: f.answers ? JSON.stringify(f.answers) : null,
  };
  await q(trx).insertInto('feedback_items').values(row).execute();
  if (f.counted && f.themes.length > 0) {
    await q(trx)
      .insertInto('feedback_themes')
      .values(f.themes.map((theme) => ({ feedback_id: f.id, theme, subject: f.subject, listing_id: f.listing_id, created_at: f.created_at })))
      .execute();
  }
  if (f.counted && f.answers) {
    const rows = answerRows(f.answers).map((a) => ({ feedback_id: f.id, ...a, subject: f.subject, created_at: f.created_at }));
    if (rows.length) await q(trx).insertInto('feedback_answers').values(rows).execute();
  }
  return itemOf(row);
}

/** The aggregable rows of some answers: scales and amounts (num), choices (one row per option); text stays on the item. */
function answerRows(answers: Answers): { question: string; value: string; num: number | null }[] {
  const out: { question: string; value: string; num: number | null }[] = [];
  for (const [id, value] of Object.entries(answers)) {
    const type = question(id)?.type;
    if (type === 'scale' || type === 'currency') out.push({ question: id, value: String(value), num: value as number });
    else if (type === 'single') out.push({ question: id, value: value as string, num: null });
    else if (type === 'multi') for (const o of value as string[]) out.push({ question: id, value: o, num: null });
  }
  return out;
}

/** Claims the day's count of a key (a body's hash, or `trace:<listing>`) for a caller: true the first time, false after (atomic). */
export async function claimCount(trx: Executor, subject: string, day: string, bodyHash: string): Promise<boolean> {
  const row = await q(trx)
    .insertInto('feedback_counted')
    .values({ subject, day, body_hash: bodyHash })
    .onConflict((oc) => oc.columns(['subject', 'day', 'body_hash']).doNothing())
    .returning('subject')
    .executeTakeFirst();
  return row !== undefined;
}

/** Feedback after `sinceIso` (exclusive), oldest first, by caller and/or listing (either matches when both are given). */
export async function feedbackSince(ex: Executor, by: { subject?: string; listing_id?: string }, sinceIso: string, limit: number): Promise<FeedbackItem[]> {
  if (by.subject === undefined && by.listing_id === undefined) return [];
  const rows = await q(ex)
    .selectFrom('feedback_items')
    .selectAll()
    .where('created_at', '>', sinceIso)
    .where((eb) => {
      const any = [];
      if (by.subject !== undefined) any.push(eb('subject', '=', by.subject));
      if (by.listing_id !== undefined) any.push(eb('listing_id', '=', by.listing_id));
      return eb.or(any);
    })
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(itemOf);
}

/** A caller's latest counted feedback, newest first. */
export async function recentFeedbackOf(ex: Executor, subject: string, limit: number): Promise<FeedbackItem[]> {
  const rows = await q(ex).selectFrom('feedback_items').selectAll().where('subject', '=', subject).where('counted', '=', 1).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(itemOf);
}

/** Theme mentions the community count reads: the latest ones, so a read stays bounded as feedback grows. */
export const COMMUNITY_WINDOW = 2000;

/**
 * The most common themes among the latest COMMUNITY_WINDOW theme mentions of counted feedback left
 * by anyone but `excludeSubject` (with `maxRating`, only items rated at most that: requests for
 * change, not praise), most common first (ties by theme id).
 */
export async function commonThemes(ex: Executor, excludeSubject: string | undefined, limit: number, maxRating?: number): Promise<{ theme: ThemeId; count: number }[]> {
  let recent = q(ex).selectFrom('feedback_themes').select('feedback_themes.theme').orderBy('feedback_themes.created_at', 'desc').orderBy('feedback_themes.feedback_id', 'desc').limit(COMMUNITY_WINDOW);
  if (excludeSubject !== undefined) recent = recent.where('feedback_themes.subject', '<>', excludeSubject);
  if (maxRating !== undefined) recent = recent.where(({ exists, selectFrom }) => exists(selectFrom('feedback_items').select('feedback_items.id').whereRef('feedback_items.id', '=', 'feedback_themes.feedback_id').where('feedback_items.rating', '<=', maxRating)));
  const rows = await q(ex)
    .selectFrom(recent.as('recent'))
    .select((eb) => ['recent.theme', eb.fn.countAll<number>().as('n')])
    .groupBy('recent.theme')
    .orderBy('n', 'desc')
    .orderBy('recent.theme')
    .limit(limit)
    .execute();
  return rows.filter((r) => isThemeId(r.theme)).map((r) => ({ theme: r.theme as ThemeId, count: Number(r.n) }));
}

/**
 * The ids of the latest counted feedback items naming each theme, left by anyone but
 * `excludeSubject` (with `maxRating`, rated at most that), newest first, at most `perTheme` a
 * theme: the evidence a community theme cites.
 */
export async function recentThemeItems(ex: Executor, themes: readonly ThemeId[], excludeSubject: string | undefined, perTheme: number, maxRating?: number): Promise<Map<ThemeId, string[]>> {
  const out = new Map<ThemeId, string[]>();
  for (const theme of themes) {
    let sel = q(ex).selectFrom('feedback_themes').innerJoin('feedback_items', 'feedback_items.id', 'feedback_themes.feedback_id').select('feedback_themes.feedback_id').where('feedback_themes.theme', '=', theme);
    if (excludeSubject !== undefined) sel = sel.where('feedback_themes.subject', '<>', excludeSubject);
    if (maxRating !== undefined) sel = sel.where('feedback_items.rating', '<=', maxRating);
    const rows = await sel.orderBy('feedback_themes.created_at', 'desc').orderBy('feedback_themes.feedback_id', 'desc').limit(perTheme).execute();
    out.set(theme, rows.map((r) => r.feedback_id));
  }
  return out;
}

/**
 * Unlinks the feedback a subject wrote from it (its listing was deleted): the items stay for the
 * aggregates and the audit, with no author and no agent name.
 */
export async function eraseAuthor(ex: Executor, subject: string): Promise<void> {
  await q(ex).updateTable('feedback_items').set({ subject: 'erased', agent_name: null }).where('subject', '=', subject).execute();
}
