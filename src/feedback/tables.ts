// The feedback domain's tables (SPEC.md 2.4). Only files in src/feedback/ may import this module.
// `feedback_items` keeps every accepted item; `feedback_themes` one row per (item, theme), so the
// most common themes are one GROUP BY; `feedback_counted` makes "an identical body from the same
// caller the same day refills once" a primary key, atomic on both engines.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface FeedbackItemsTable {
  id: string; // fb_...
  created_at: string;
  day: string; // YYYY-MM-DD (UTC)
  subject: string; // metering subject key of the caller (caller.ts)
  listing_id: string | null; // the listing the feedback names (must exist)
  source: string | null;
  agent_name: string | null;
  sku: string | null;
  body: string; // untrusted text, cleaned and capped; never in the public feed
  rating: number; // 1-5
  tags: string; // JSON string[]
  audience: string | null; // agent | mcp
  surface: string; // SPEC.md 2.5 surface id
  mode: string; // ultra | structured
  structured: number; // 0/1: the complete survey was answered (mode structured or the agent path)
  meta: string; // JSON {themes, counted, surface, survey_version?}
  counted: number; // 0/1: the first of identical bodies from this caller this day
  answers: string | null; // JSON survey answers (survey.ts), checked and cleaned; null when none
}

/** One row per answered scale, choice (each option of a multi) and amount of a counted item. */
export interface FeedbackAnswersTable {
  feedback_id: string;
  question: string; // survey question id
  value: string; // the option, or the number as text
  num: number | null; // scale and currency answers
  subject: string;
  created_at: string;
}

export interface FeedbackThemesTable {
  feedback_id: string;
  theme: string;
  subject: string;
  listing_id: string | null;
  created_at: string;
}

export interface FeedbackCountedTable {
  subject: string;
  day: string;
  body_hash: string; // SHA-256 of the body, lower-cased with whitespace collapsed; or trace:<listing_id> (one trace a day)
}

export type FeedbackTables = { feedback_items: FeedbackItemsTable; feedback_themes: FeedbackThemesTable; feedback_counted: FeedbackCountedTable; feedback_answers: FeedbackAnswersTable };

export const feedbackTables = (ex: Executor) => typed<FeedbackTables>(ex);
