// hirey_likeness (SPEC.md 2.8, DESIGN.md "Connector daily pick"): the sum of the weights of the
// operator's ideal-partner traits that a candidate's own text shows. A trait counts once, when any
// of its keywords (or their plural) appears as whole words. The defaults describe Rollcall's ideal
// partner; a partners file may replace them (partners-file.ts).
export interface Trait {
  trait: string;
  weight: number;
  keywords: string[];
}

export interface MatchedTrait {
  trait: string;
  weight: number;
  /** The keywords found. */
  hits: string[];
}

export const DEFAULT_TRAITS: readonly Trait[] = [
  { trait: 'agent-native', weight: 6, keywords: ['agent', 'a2a', 'multi-agent', 'autonomous', 'assistant'] },
  { trait: 'mcp', weight: 5, keywords: ['mcp', 'model context protocol', 'tool server', 'tool'] },
  { trait: 'discovery', weight: 5, keywords: ['registry', 'directory', 'marketplace', 'discovery', 'catalog', 'search'] },
  { trait: 'developers', weight: 4, keywords: ['developer', 'devtools', 'sdk', 'api', 'open source', 'github', 'code'] },
  { trait: 'workflows', weight: 4, keywords: ['workflow', 'orchestration', 'collaboration', 'automation', 'pipeline', 'integration'] },
  { trait: 'trust', weight: 3, keywords: ['evaluation', 'eval', 'observability', 'monitoring', 'testing', 'trust', 'security', 'reliability'] },
  { trait: 'hiring', weight: 3, keywords: ['hiring', 'recruiting', 'recruiter', 'talent', 'job', 'career'] },
];

/** Lower case, every run of other characters one space: "Multi-Agent, A2A!" -> " multi agent a2a ". */
const normalize = (text: string) => ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;

const patternOf = (keyword: string): RegExp | null => {
  const words = normalize(keyword).trim();
  if (!words) return null;
  const last = words.endsWith('y') ? `${words.slice(0, -1)}(?:y|ies)` : `${words}(?:s|es)?`;
  return new RegExp(` ${last} `);
};

export const maxLikeness = (traits: readonly Trait[]): number => traits.reduce((sum, t) => sum + t.weight, 0);

export function likeness(text: string, traits: readonly Trait[]): { hirey_likeness: number; traits: MatchedTrait[] } {
  const hay = normalize(text);
  const matched: MatchedTrait[] = [];
  for (const t of traits) {
    const hits = t.keywords.filter((k) => patternOf(k)?.test(hay) ?? false);
    if (hits.length) matched.push({ trait: t.trait, weight: t.weight, hits });
  }
  return { hirey_likeness: matched.reduce((sum, m) => sum + m.weight, 0), traits: matched };
}
