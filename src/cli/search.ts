// `rollcall search <query>`: the ard_search operation on the configured database, with the engine
// a server runs, its index built here from the database for this one query.
import { loadConfig } from '../config.ts';
import { runOperation } from '../platform/operation.ts';
import { ardSearch } from '../registry/search.ts';
import { openLocal } from './local.ts';
import { EXIT, emit, type Runner } from './command.ts';

interface Hit {
  identifier: string;
  kind: string;
  source: 'listing' | 'catalog';
  name: string;
  url: string | null;
  score: number | null;
  why: string[];
  listing_id?: string;
  trust: { probe_score: number | null; badge: string } | null;
}

function describe(query: string, hits: Hit[]): string {
  if (!hits.length) return `no hits for ${JSON.stringify(query)}`;
  const lines = [`${hits.length} hit${hits.length === 1 ? '' : 's'} for ${JSON.stringify(query)}`];
  hits.forEach((h, i) => {
    const where = h.source === 'listing' ? `Live listing ${h.listing_id}` : 'catalog';
    lines.push(`${String(i + 1).padStart(3)}. ${h.name}  (${h.kind}, ${where})  relevance ${h.score ?? '-'}${h.trust?.probe_score != null ? `, trust score ${h.trust.probe_score}` : ''}`);
    if (h.url) lines.push(`     ${h.url}`);
    if (h.why.length) lines.push(`     why: ${h.why.join('; ')}`);
  });
  return lines.join('\n');
}

export const run: Runner = async (inv) => {
  const q = inv.positionals.join(' ');
  const local = await openLocal(loadConfig(inv.io.env), inv.io);
  try {
    await local.services.search.hydrate();
    // --limit and --kind are checked by the operation's own schema (a bad one is a usage error).
    const input = { q, ...(inv.values.limit !== undefined ? { limit: inv.values.limit } : {}), ...(inv.values.kind !== undefined ? { kind: inv.values.kind } : {}) };
    const answer = (await runOperation(ardSearch, local.ctx(), input, 'cli')) as { query: string; hits: Hit[] };
    emit(inv, answer, () => describe(answer.query, answer.hits));
    return EXIT.ok;
  } finally {
    await local.close();
  }
};
