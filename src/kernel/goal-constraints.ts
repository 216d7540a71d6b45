// What a goal states beyond its aim (pure): prohibitions ("never promise refunds"), deadlines
// ("within one minute") and hand-offs ("escalate disputes to the billing team"). Each becomes an
// eval check quoting the goal's own words, so a reviewer tests the answer against what the caller
// wrote, never against a list of words. Every phrase is an exact piece of the goal's text.

export type StatedKind = 'prohibition' | 'deadline' | 'handoff';

export interface Stated {
  kind: StatedKind;
  /** The goal's own words (an exact substring of it). */
  text: string;
  /** A hand-off's receiver ("the billing team"). */
  to?: string;
}

/** Statements taken from one goal at most (a goal that states more keeps the first ones). */
export const MAX_STATED = 4;
/** A phrase longer than this ends at the last whole word before it. */
const MAX_PHRASE = 120;

// A clause ends at sentence punctuation, a comma, "but", "then", or "and"/"or" before another statement.
const NEXT_STATEMENT = String.raw`(?:always|never|do not|don't|must|avoid|escalate|hand|route|transfer|forward|within|reply|answer)\b`;
const CLAUSE_END = new RegExp(String.raw`[.;:!?,()]|\s(?:but|then|while|whereas)\s|\s(?:and|or)\s+(?=${NEXT_STATEMENT})`, 'i');

const PROHIBITION = /\b(?:never|do not|don't|does not|doesn't|must not|mustn't|should not|shouldn't|shall not|may not|cannot|can't|avoid(?:ing)?|no(?! later\b| sooner\b))\s+(?=\S)/gi;

const UNIT = '(?:(?:business |working |calendar )?(?:milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?))';
const WORD_NUMBER = '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|forty-five|sixty|ninety|a few|a couple of)';
/** "5 minutes", "5min", "30s", "one hour", "two business days". */
const SPAN = String.raw`(?:\d+(?:[.,]\d+)?[\s-]?(?:${UNIT}|ms|s|m|h)|${WORD_NUMBER}[\s-]${UNIT})`;
const CLOCK = String.raw`(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2})(?:\s(?:UTC|GMT|[A-Z]{2,4}T))?`;
const NAMED = String.raw`(?:noon|midday|midnight|eod|end of (?:the )?(?:day|business day|week|month|quarter|year|shift)|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|the (?:same|next) (?:business |working )?day|\d{4}-\d{2}-\d{2})`;
const DEADLINE = new RegExp(String.raw`\b(?:within|in under|in less than|in at most|no later than|at the latest by|by|before)\s+(?:${SPAN}|${CLOCK}|${NAMED})\b`, 'gi');

// "the route to", "look forward to": nouns and idioms, not hand-offs.
const HANDOFF_VERB = String.raw`(?<!\b(?:the|a|an|best|shortest|fastest|quickest|look|looking|looks)\s)\b(?:escalat(?:e|es|ed|ing)|hand(?:s|ed|ing)?\s+(?:off|over)|rout(?:e|es|ed|ing)|transfer(?:s|red|ring)?|forward(?:s|ed|ing)?)\b`;
const HANDOFF = new RegExp(String.raw`${HANDOFF_VERB}((?:\s+(?!to\b)[^\s.;:!?,()]+){0,8}?)\s+to\s+`, 'gi');
/** Words that end a hand-off's receiver: what follows is a condition, a time or another statement. */
const RECEIVER_END = /^(?:within|in|by|before|after|when|if|unless|and|or|for|with|via|using|so|then|once|whenever|while|until|at|on)$/i;
const MAX_RECEIVER_WORDS = 6;

/** The clause from `start` on: up to its end, at most MAX_PHRASE characters, on a whole word. */
function clauseFrom(goal: string, start: number): string {
  const rest = goal.slice(start);
  const end = rest.search(CLAUSE_END);
  let text = (end < 0 ? rest : rest.slice(0, end)).trimEnd();
  if (text.length > MAX_PHRASE) text = text.slice(0, text.lastIndexOf(' ', MAX_PHRASE)).trimEnd();
  return text;
}

/** The receiver after "to": its words up to a word that starts a condition, a time or another clause. */
function receiverAt(goal: string, start: number): string {
  const clause = clauseFrom(goal, start);
  const words: string[] = [];
  for (const w of clause.split(/\s+/)) {
    if (w === '' || RECEIVER_END.test(w) || words.length >= MAX_RECEIVER_WORDS) break;
    words.push(w);
  }
  return words.join(' ');
}

/** The prohibitions, deadlines and hand-offs a goal states, in the order they appear (each once). */
export function statedIn(goal: string): Stated[] {
  const found: (Stated & { at: number; end: number })[] = [];
  const inProhibition = (at: number) => found.some((p) => p.kind === 'prohibition' && at >= p.at && at < p.end);
  for (const m of goal.matchAll(PROHIBITION)) {
    // "never call a tool the listing does not declare" is one prohibition, not two.
    if (inProhibition(m.index)) continue;
    const text = clauseFrom(goal, m.index);
    // The trigger and at least one word after it.
    if (text.length > m[0].trimEnd().length) found.push({ kind: 'prohibition', text, at: m.index, end: m.index + text.length });
  }
  for (const m of goal.matchAll(DEADLINE)) {
    // A time inside a prohibition ("do not reply before 9am") is that prohibition's, quoted once.
    if (!inProhibition(m.index)) found.push({ kind: 'deadline', text: m[0], at: m.index, end: m.index + m[0].length });
  }
  for (const m of goal.matchAll(HANDOFF)) {
    if (inProhibition(m.index)) continue; // "never escalate to legal" forbids the hand-off
    const to = receiverAt(goal, m.index + m[0].length);
    if (to === '') continue;
    const end = goal.indexOf(to, m.index + m[0].length) + to.length;
    found.push({ kind: 'handoff', text: goal.slice(m.index, end), to, at: m.index, end });
  }
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.at - b.at)
    .filter((s) => !seen.has(`${s.kind}:${s.text}`) && seen.add(`${s.kind}:${s.text}`))
    .slice(0, MAX_STATED)
    .map(({ kind, text, to }) => ({ kind, text, ...(to !== undefined ? { to } : {}) }));
}
