// What of a feedback item the public feedback list shows (SPEC.md 2.4 fields): the rating, the
// cleaned body and answers, where it was left, themes. Never the caller's subject key or address,
// never a discount code or token; e-mail addresses, tokens, long secrets and IP addresses inside
// the text are replaced before it is shown.
import type { FeedbackItem } from './store.ts';
import { question, type Answers } from './survey.ts';
import { themeLabel } from './themes.ts';

const RULES: [RegExp, string][] = [
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu, '[email]'],
  [/\brc_[A-Za-z0-9_-]{8,}/g, '[token]'],
  [/\b(?:sk|pk|ghp|gho|xox[abp]|AKIA)[-_A-Za-z0-9]{12,}/g, '[secret]'],
  [/\b[A-Za-z0-9+/_-]{32,}={0,2}/g, '[secret]'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}\b/g, '[address]'],
  [/\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b/gi, '[address]'],
  [/(https?:\/\/)[^\s/@]+@/gi, '$1'],
];

/** Replaces e-mail addresses, tokens, secrets and IP addresses in a text shown publicly. */
export function redact(text: string): string {
  let out = text;
  for (const [re, to] of RULES) out = out.replace(re, to);
  return out;
}

/** Answers as shown publicly: text answers redacted, everything else as stored. */
export function publicAnswers(answers: Answers): Answers {
  const out: Answers = {};
  for (const [id, v] of Object.entries(answers)) out[id] = question(id)?.type === 'text' ? redact(v as string) : v;
  return out;
}

export function publicItem(item: FeedbackItem) {
  return {
    id: item.id,
    created_at: item.created_at,
    source: item.source,
    agent_name: item.agent_name === null ? null : redact(item.agent_name),
    sku: item.sku,
    body: redact(item.body),
    rating: item.rating,
    tags: item.tags,
    audience: item.audience,
    listing_id: item.listing_id,
    surface: item.surface,
    mode: item.mode,
    structured: item.structured,
    ...(item.answers ? { answers: publicAnswers(item.answers) } : {}),
    themes: item.themes.map((theme) => ({ theme, label: themeLabel(theme) })),
    meta: { surface: item.surface, ...(item.meta.survey_version ? { survey_version: item.meta.survey_version } : {}) },
  };
}
