// Improvement themes of feedback text: each theme is a small set of word stems (Porter, `stemmer`);
// a text names a theme when one of its words stems to one of them. Pure and deterministic, so the
// kernel, the loop and the summaries read the same themes from the same words.
import { stemmer } from 'stemmer';
import { words } from '../platform/real-text.ts';

export const THEME_IDS = [
  'shorter_prompt',
  'clearer_goals',
  'examples',
  'output_format',
  'evals',
  'memory',
  'tool_policy',
  'latency',
  'accuracy',
  'safety',
  'docs',
  'cost',
] as const;

export type ThemeId = (typeof THEME_IDS)[number];

interface Theme {
  id: ThemeId;
  label: string;
  /** Words whose stems name the theme. */
  words: string;
}

export const THEMES: readonly Theme[] = [
  { id: 'shorter_prompt', label: 'shorter prompt', words: 'short shorter long longer lengthy length verbose verbosity wordy concise brief bloated tokens token trim' },
  { id: 'clearer_goals', label: 'clearer goals', words: 'goal goals objective objectives unclear vague ambiguous ambiguity clarity clear clearer confusing confused purpose intent focus' },
  { id: 'examples', label: 'examples', words: 'example examples sample samples illustration walkthrough demo demos showcase' },
  { id: 'output_format', label: 'output format', words: 'format formatting formatted json schema structure structured markdown parse parsing output outputs yaml fields' },
  { id: 'evals', label: 'evals', words: 'eval evals evaluation evaluate check checks metric metrics measure measuring benchmark regression score scoring grade' },
  { id: 'memory', label: 'memory', words: 'memory remember remembers forget forgets forgot history state persist persistent recall context' },
  { id: 'tool_policy', label: 'tool policy', words: 'tool tools policy permission permissions function functions invoke invocation call calls calling api apis' },
  { id: 'latency', label: 'latency', words: 'slow slower latency fast faster speed quick quicker timeout timeouts wait waiting lag delay performance' },
  { id: 'accuracy', label: 'accuracy', words: 'wrong incorrect hallucinate hallucinates hallucination inaccurate accurate accuracy mistake mistakes error errors bug bugs broken correct' },
  { id: 'safety', label: 'safety', words: 'safe safety unsafe harmful harm injection jailbreak secret secrets leak leaks privacy' },
  { id: 'docs', label: 'docs', words: 'docs documentation document documented readme explain explanation guide tutorial onboarding instructions' },
  { id: 'cost', label: 'cost', words: 'cost costs price pricing expensive cheap pay paid quota allowance billing budget' },
];

const byStem = new Map<string, ThemeId[]>();
for (const t of THEMES) {
  for (const w of t.words.split(/\s+/)) {
    const s = stemmer(w);
    const list = byStem.get(s) ?? [];
    if (!list.includes(t.id)) list.push(t.id);
    byStem.set(s, list);
  }
}

const labels = new Map(THEMES.map((t) => [t.id, t.label]));
export const themeLabel = (id: ThemeId): string => labels.get(id) ?? id;
export const isThemeId = (id: string): id is ThemeId => labels.has(id as ThemeId);

/** The themes a text names, in THEME_IDS order (each once). */
export function extractThemes(text: string): ThemeId[] {
  const found = new Set<ThemeId>();
  for (const w of words(text)) for (const id of byStem.get(stemmer(w)) ?? []) found.add(id);
  return THEME_IDS.filter((id) => found.has(id));
}

/** Themes counted over many texts, most common first (ties in THEME_IDS order). */
export function countThemes(lists: readonly (readonly ThemeId[])[]): { theme: ThemeId; count: number }[] {
  const counts = new Map<ThemeId, number>();
  for (const list of lists) for (const id of new Set(list)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return THEME_IDS.filter((id) => counts.has(id))
    .map((id) => ({ theme: id, count: counts.get(id)! }))
    .sort((a, b) => b.count - a.count || THEME_IDS.indexOf(a.theme) - THEME_IDS.indexOf(b.theme));
}
