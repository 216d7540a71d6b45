// Live listings seeded straight through the stores for benchmarks: `.invalid` hosts never resolve,
// and the servers benchmarked run no probe tick (JOB_TICK_S=0), so they stay as seeded.
import type { Db } from '../src/platform/db/dialect.ts';
import { insertListingIfNew, updateListing } from '../src/listings/store.ts';
import { funnelRankPart, NO_FUNNEL } from '../src/funnel/store.ts';
import { saveProbeState } from '../src/probe/store.ts';
import { probeRankPart } from '../src/probe/apply.ts';

/** `count` Live listings, agents and MCPs alternating, scores 40-99; `describe` gives each its description. */
export async function seedLiveListings(db: Db, count: number, describe: (i: number, kind: 'agent' | 'mcp') => string): Promise<void> {
  const now = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const kind = i % 2 ? 'agent' : 'mcp';
    const url = kind === 'agent' ? `https://bench-${i}.invalid/.well-known/agent-card.json` : `https://bench-${i}.invalid/mcp`;
    const { row } = await insertListingIfNew(db.kysely, { url, kind, name: `Bench ${kind} ${i}`, submittedName: null, contactEmail: null, source: 'bench', rankParts: funnelRankPart(NO_FUNNEL) }, now);
    const score = 40 + (i % 60);
    await saveProbeState(db.kysely, row.id, { checks_clean: 1, ok: 1, handshake: 'ok', score, probed_at: now });
    await updateListing(db.kysely, row.id, { lane: 'active', live_since: now, description: describe(i, kind) }, now, probeRankPart(score));
  }
}
