// Listing categories. A category comes only from what a probe saw: a new listing is `other`, and
// each successful probe files it by the words of its card or server (name, description, skill or
// tool names, descriptions and tags). Words that point at no category clearly leave it `other`:
// nothing is guessed from the kind, the URL or the publisher's form.
export const CATEGORIES: Record<string, string> = {
  other: 'Other',
  'code-devtools': 'Code & devtools',
  'data-analytics': 'Data & analytics',
  'search-web': 'Search & web',
  productivity: 'Productivity',
  communication: 'Communication',
  finance: 'Finance & commerce',
  'ai-ml': 'AI & models',
};

/** What a listing is before any probe read it, and whenever the probe's words settle nothing. */
export const UNKNOWN_CATEGORY = 'other';

export const categoryLabel = (id: string): string => CATEGORIES[id] ?? CATEGORIES.other!;

/** Whole words (and their plurals) that speak for a category; a listing's words are matched lower-cased. */
const WORDS: Record<string, readonly string[]> = {
  'code-devtools': ['git', 'github', 'gitlab', 'repository', 'repo', 'commit', 'pull request', 'branch', 'code', 'source code', 'lint', 'linter', 'compile', 'compiler', 'debug', 'debugger', 'npm', 'package', 'deploy', 'docker', 'kubernetes', 'terminal', 'shell', 'unit test', 'stack trace'],
  'data-analytics': ['sql', 'database', 'postgres', 'postgresql', 'mysql', 'sqlite', 'bigquery', 'snowflake', 'csv', 'spreadsheet', 'dataset', 'analytics', 'dashboard', 'chart', 'metric', 'table', 'warehouse', 'etl'],
  'search-web': ['search', 'web', 'browse', 'browser', 'crawl', 'crawler', 'scrape', 'scraper', 'webpage', 'website', 'url', 'wikipedia', 'news', 'google', 'bing'],
  productivity: ['calendar', 'meeting', 'schedule', 'todo', 'task', 'note', 'notion', 'document', 'docs', 'drive', 'pdf', 'reminder', 'project', 'ticket', 'jira'],
  communication: ['slack', 'discord', 'telegram', 'whatsapp', 'chat', 'message', 'sms', 'email', 'mail', 'inbox', 'notify', 'notification', 'teams', 'translate', 'translation'],
  finance: ['payment', 'invoice', 'stripe', 'price', 'pricing', 'stock', 'crypto', 'bank', 'banking', 'finance', 'financial', 'billing', 'tax', 'currency', 'shop', 'order', 'checkout', 'commerce', 'ecommerce'],
  'ai-ml': ['llm', 'model', 'embedding', 'inference', 'prompt', 'fine tune', 'machine learning', 'neural', 'image generation', 'transcribe', 'transcription', 'classifier'],
};

/** The fewest distinct words a category needs, and it must have more than any other. */
const MIN_WORDS = 2;

const regexText = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
const PATTERNS: [string, RegExp[]][] = Object.entries(WORDS).map(([id, words]) => [id, words.map((w) => new RegExp(`(^|[^a-z0-9])${regexText(w)}(e?s)?($|[^a-z0-9])`))]);

/** What a probe read of a card or server, as words. */
export interface SeenWords {
  name?: string | null;
  description?: string | null;
  capabilities: readonly { name: string; title?: string; description?: string; tags?: readonly string[] }[];
}

/**
 * The category the words a probe saw point at: the one with the most distinct words of its own,
 * at least MIN_WORDS and more than any other; `other` when none stands out. Tool names are split at
 * `_`, `-` and case changes, so `search_web` and `getCalendar` speak as words do.
 */
export function categoryFromProbe(seen: SeenWords): string {
  const text = [seen.name, seen.description, ...seen.capabilities.flatMap((c) => [c.name, c.title, c.description, ...(c.tags ?? [])])]
    .filter((s): s is string => typeof s === 'string' && s !== '')
    .map((s) => s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' '))
    .join(' \n ')
    .toLowerCase();
  const scored = PATTERNS.map(([id, patterns]) => ({ id, n: patterns.filter((p) => p.test(text)).length })).sort((a, b) => b.n - a.n);
  const [first, second] = scored;
  return first && first.n >= MIN_WORDS && first.n > (second?.n ?? 0) ? first.id : UNKNOWN_CATEGORY;
}
