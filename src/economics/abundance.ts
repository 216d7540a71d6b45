// abundance_rank: listings ranked by the value they gave others, from what others recorded about
// them: outcomes reported on them (count and summed quality), endorsements received, and stored
// compositions they serve in as a partner (the free artifacts of the mesh: plans other callers
// built on them). score = summed outcome quality + endorsements + compositions served.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { findListingsByIds } from '../listings/store.ts';
import { receivedByListing } from '../traces/counts.ts';
import { partnerServings } from '../mesh/store.ts';
import { READ_ONLY } from './window.ts';

export const SCORE = 'score = outcome_quality (summed quality of outcomes reported on it) + endorsements received + compositions served as a partner';

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

export const abundanceRank = defineOperation({
  name: 'abundance_rank',
  title: 'Listings ranked by value given to others',
  annotations: READ_ONLY,
  description:
    'Listings ranked by the value they gave others: score = outcome quality reported on them + endorsements received + compositions they serve in as a partner. Optional `kind` (agent or mcp).',
  input: z.strictObject({
    kind: z.enum(['agent', 'mcp']).optional().describe('Only agents or only MCP servers.'),
    limit: z.coerce.number().int().min(1).max(100).default(20).describe('How many listings (default 20, at most 100).'),
  }),
  output: z.looseObject({ ok: z.literal(true), ranks: z.array(z.looseObject({ rank: z.number(), listing_id: z.string(), score: z.number() })) }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    const received = await receivedByListing(ex);
    const served = await partnerServings(ex);
    const ids = [...new Set([...received.keys(), ...served.keys()])];
    const scored = ids.map((id) => {
      const r = received.get(id) ?? { outcomes: 0, quality: 0, endorsements: 0 };
      const compositions = served.get(id) ?? 0;
      return { listing_id: id, outcomes: r.outcomes, outcome_quality: round4(r.quality), endorsements: r.endorsements, compositions_served: compositions, score: round4(r.quality + r.endorsements + compositions) };
    });
    const rows = new Map((await findListingsByIds(ex, ids)).map((l) => [l.id, l]));
    const ranked = scored
      .filter((s) => rows.has(s.listing_id) && (input.kind === undefined || rows.get(s.listing_id)!.kind === input.kind) && s.score > 0)
      .sort((a, b) => b.score - a.score || a.listing_id.localeCompare(b.listing_id))
      .slice(0, input.limit)
      .map((s, i) => {
        const l = rows.get(s.listing_id)!;
        return { rank: i + 1, listing_id: s.listing_id, name: l.name, kind: l.kind, lane: l.lane, score: s.score, outcomes: s.outcomes, outcome_quality: s.outcome_quality, endorsements: s.endorsements, compositions_served: s.compositions_served };
      });
    return { ok: true as const, score: SCORE, ...(input.kind ? { kind: input.kind } : {}), ranks: ranked };
  },
});
