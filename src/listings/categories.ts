// Listing categories. Until the prober reads capabilities, a listing gets its kind's default
// (SPEC.md 2.1 examples: `other` for agents, `code-devtools` for MCPs).
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

export const defaultCategory = (kind: 'agent' | 'mcp'): string => (kind === 'agent' ? 'other' : 'code-devtools');

export const categoryLabel = (id: string): string => CATEGORIES[id] ?? CATEGORIES.other!;
