// Partner candidates (DESIGN.md "Connector daily pick"): the partners file's entries and the Live
// listings (the MAX_LISTINGS best ranked), each with its hirey_likeness, its live score (probe
// score / 10) and whether it passes the quality gate. A file entry that names a listing stands for
// that listing: the operator's name, role and words, the listing's probe.
import type { Executor } from '../platform/db/executor.ts';
import { activeOrder, findListingsByIds, rowsInOrder, type ListingRow } from '../listings/store.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import { loadProbeStates } from '../probe/store.ts';
import type { FilePartner } from './partners-file.ts';
import { likeness, type MatchedTrait, type Trait } from './traits.ts';

export const GATE = { min_hirey_likeness: 14, min_live_score: 5 } as const;
/** Live listings considered per pick, best ranked first (a pick stays one bounded read). */
export const MAX_LISTINGS = 500;
const MAX_TEXT = 6000;

export interface Candidate {
  /** listing:<id> or file:<id>: what "picked in the last N days" compares. */
  key: string;
  id: string;
  name: string;
  kind: string;
  role: string;
  engage: string;
  source: 'listing' | 'partners_file';
  listing_id: string | null;
  live_score: number;
  hirey_likeness: number;
  traits: MatchedTrait[];
  /** hirey_likeness + live score: the order among candidates on the same side of the gate. */
  score: number;
  passes: boolean;
}

const ENGAGE_LISTING = 'Through its own channels (its website or card); prep leaves a note in its talk inbox.';
const roleOf = (kind: 'agent' | 'mcp') => (kind === 'agent' ? 'A2A agent listed on Rollcall' : 'MCP server listed on Rollcall');

/** What a listing says of itself: name, description, skill or tool names, descriptions and tags (not its category: most are the default). */
function listingText(row: ListingRow): string {
  const parts = [row.name, row.description];
  if (row.capabilities) {
    try {
      const caps = JSON.parse(row.capabilities) as { names?: unknown; items?: { name?: unknown; title?: unknown; description?: unknown; tags?: unknown }[] };
      if (Array.isArray(caps.names)) parts.push(...caps.names.filter((n): n is string => typeof n === 'string'));
      for (const item of Array.isArray(caps.items) ? caps.items : []) {
        for (const v of [item.title, item.description]) if (typeof v === 'string') parts.push(v);
        if (Array.isArray(item.tags)) parts.push(...item.tags.filter((t): t is string => typeof t === 'string'));
      }
    } catch {
      // A listing whose stored capabilities do not parse is judged on its name and description.
    }
  }
  return parts.join(' ').slice(0, MAX_TEXT);
}

const fileText = (p: FilePartner) => [p.name, p.kind ?? '', p.role ?? '', p.about ?? '', ...(p.tags ?? [])].join(' ');

function scored(base: Omit<Candidate, 'hirey_likeness' | 'traits' | 'score' | 'passes'>, text: string, traits: readonly Trait[]): Candidate {
  const like = likeness(text, traits);
  return {
    ...base,
    hirey_likeness: like.hirey_likeness,
    traits: like.traits,
    score: Math.round((like.hirey_likeness + base.live_score) * 10) / 10,
    passes: like.hirey_likeness >= GATE.min_hirey_likeness && base.live_score >= GATE.min_live_score,
  };
}

/** The best ranked Live listings of both kinds, at most `max`. */
async function liveListings(ex: Executor, max: number): Promise<ListingRow[]> {
  const rows = (await Promise.all((['agent', 'mcp'] as const).map(async (k) => rowsInOrder(ex, (await activeOrder(ex, k)).slice(0, max), 'active')))).flat();
  return rows.sort((a, b) => b.rank - a.rank || a.id.localeCompare(b.id)).slice(0, max);
}

export async function gatherCandidates(ex: Executor, filePartners: readonly FilePartner[], traits: readonly Trait[]): Promise<Candidate[]> {
  const live = await liveListings(ex, MAX_LISTINGS);
  const named = filePartners.flatMap((p) => (p.listing_id ? [p.listing_id] : []));
  const known = new Map([...live, ...(await findListingsByIds(ex, named.filter((id) => !live.some((r) => r.id === id))))].map((r) => [r.id, r]));
  const probes = await loadProbeStates(ex, [...known.keys()]);
  // Live score = probe score / 10, for a listing that is Live now; a named listing that is not scores 0.
  const liveScore = (row: ListingRow) => (row.lane === 'active' ? Math.round(probes.get(row.id)?.score ?? 0) / 10 : 0);
  const out = new Map<string, Candidate>();
  for (const row of live) {
    out.set(`listing:${row.id}`, scored({ key: `listing:${row.id}`, id: row.id, name: cleanText(row.name, MAX_NAME), kind: row.kind, role: roleOf(row.kind), engage: ENGAGE_LISTING, source: 'listing', listing_id: row.id, live_score: liveScore(row) }, listingText(row), traits));
  }
  for (const p of filePartners) {
    const row = p.listing_id ? known.get(p.listing_id) : undefined;
    const common = { name: cleanText(p.name, MAX_NAME), role: cleanText(p.role ?? '', 200) || (row ? roleOf(row.kind) : 'partner'), source: 'partners_file' as const };
    if (row) {
      // The operator's entry stands for the listing (it replaces the listing's own candidate).
      const engage = cleanText(p.engage ?? '', 300) || ENGAGE_LISTING;
      out.set(`listing:${row.id}`, scored({ key: `listing:${row.id}`, id: row.id, kind: row.kind, engage, listing_id: row.id, live_score: liveScore(row), ...common }, `${fileText(p)} ${listingText(row)}`, traits));
    } else {
      const engage = cleanText(p.engage ?? '', 300) || 'Through the channel you know them by (the partners file gives none).';
      const kind = cleanText(p.kind ?? 'partner', 40);
      out.set(`file:${p.id}`, scored({ key: `file:${p.id}`, id: p.id, kind, engage, listing_id: null, live_score: Math.round((p.live_score ?? 0) * 10) / 10, ...common }, cleanText(fileText(p), MAX_DESCRIPTION * 3), traits));
    }
  }
  return [...out.values()];
}

/** Gate passers first, then by score, then by key: the same set always gives the same order. */
export const rankCandidates = (cs: readonly Candidate[]): Candidate[] =>
  [...cs].sort((a, b) => Number(b.passes) - Number(a.passes) || b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
