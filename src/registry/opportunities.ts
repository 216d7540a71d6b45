// list_opportunities (TOOLS.md) and GET /api/products/opportunities: open demand in the network,
// from what was asked and not met: searches and capability matches with few or no hits (the query
// log), capabilities stored compositions could not cover (listings asking for partners), and fresh
// demand traces. Each opportunity carries a call that is valid input for its tool. Open collab
// sessions join when collab exists.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { nextStep } from '../platform/next-step.ts';
import { cleanText } from '../listings/text.ts';
import { weakQueries } from '../search/store.ts';
import { compositionGaps } from '../mesh/reads.ts';
import { MAX_CAPABILITY_CHARS } from '../mesh/coverage.ts';
import { strongest } from '../traces/store.ts';

/** A query "found little" when its best answer had at most this many hits. */
export const FEW_HITS = 2;
export const OPPORTUNITY_DAYS = 14;
const DAY_MS = 86_400_000;
const GAP_WINDOW = 2000;

const opportunitiesShape = {
  limit: z.coerce.number().int().min(1).max(50).default(20).describe('Opportunities to return (default 20, at most 50).'),
  days: z.coerce.number().int().min(1).max(90).default(OPPORTUNITY_DAYS).describe(`How far back to read demand (days, default ${OPPORTUNITY_DAYS}).`),
};

interface Opportunity {
  capability: string;
  score: number;
  asked: number;
  best_hits: number | null;
  asked_through: string[];
  partner_gaps: number;
  listings_asking: string[];
  demand: number;
  last_at: string;
}

export const listOpportunities = defineOperation({
  name: 'list_opportunities',
  title: 'List opportunities',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'Open demand in the network, ranked: capabilities searched for with few or no Live listings, those compositions could not cover, and fresh demand traces, each with the call to make. Same as GET /api/products/opportunities.',
  input: z.object(opportunitiesShape),
  // Tools refuse arguments they do not know (a model learns its mistake); REST ignores extra query parameters.
  toolInput: z.strictObject(opportunitiesShape),
  output: z.looseObject({
    ok: z.literal(true),
    opportunities: z.array(z.looseObject({ capability: z.string(), score: z.number(), call: z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()) }) })),
    next_step: z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() }),
  }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    const now = ctx.clock.now();
    const since = new Date(now.getTime() - input.days * DAY_MS).toISOString();
    const by = new Map<string, Opportunity>();
    const get = (raw: string, at: string) => {
      const capability = cleanText(raw, MAX_CAPABILITY_CHARS).toLowerCase();
      const o = by.get(capability) ?? { capability, score: 0, asked: 0, best_hits: null, asked_through: [], partner_gaps: 0, listings_asking: [], demand: 0, last_at: at };
      if (at > o.last_at) o.last_at = at;
      by.set(capability, o);
      return o;
    };
    for (const w of await weakQueries(ex, since, FEW_HITS, 200)) {
      if (cleanText(w.text, MAX_CAPABILITY_CHARS) === '') continue;
      const o = get(w.text, w.last_at);
      o.asked += w.asked;
      o.best_hits = Math.max(o.best_hits ?? 0, w.best_hits);
      o.asked_through = [...new Set([...o.asked_through, ...w.tools])].sort();
    }
    for (const g of await compositionGaps(ex, since, GAP_WINDOW)) {
      const o = get(g.capability, g.last_at);
      o.partner_gaps += g.compositions;
      o.listings_asking = [...new Set([...o.listings_asking, ...g.listings])].slice(0, 20);
    }
    // Fresh demand on capabilities that already look unmet (demand alone may be met demand).
    for (const d of await strongest(ex, 'demand', now, 100, 'capability')) {
      const o = by.get(cleanText(d.a, MAX_CAPABILITY_CHARS).toLowerCase());
      if (o) o.demand = Math.round(d.value * 1000) / 1000;
    }
    const ranked = [...by.values()]
      .map((o) => ({ ...o, score: Math.round((o.asked + 2 * o.partner_gaps + o.demand) * 1000) / 1000 }))
      .sort((a, b) => b.score - a.score || b.last_at.localeCompare(a.last_at) || a.capability.localeCompare(b.capability))
      .slice(0, input.limit);
    const top = ranked[0];
    return {
      ok: true as const,
      window_days: input.days,
      few_hits: FEW_HITS,
      opportunities: ranked.map((o) => ({
        ...o,
        why: [
          o.asked ? `asked ${o.asked} time(s) through ${o.asked_through.join(', ')}, best answer ${o.best_hits} hit(s)` : null,
          o.partner_gaps ? `${o.partner_gaps} composition(s) found no Live partner for it${o.listings_asking.length ? ` (asked by ${o.listings_asking.length} listing(s))` : ''}` : null,
          o.demand ? `demand trace ${o.demand}` : null,
        ]
          .filter(Boolean)
          .join('; '),
        call: { tool: 'mesh_match', args: { capabilities: [o.capability] }, why: 'See who covers it now (a Live listing may have joined since); leaves a demand trace.' },
        offer: nextStep('list_yourself', {}, 'If you can do this, list yourself (url: your agent card or MCP server URL): searches for it will find you.', ['url']),
      })),
      open_collab_sessions: { count: 0, note: 'collab sessions with unfilled roles join this list when collab exists' },
      next_step: top
        ? nextStep('mesh_match', { capabilities: [top.capability] }, `The most wanted unmet capability is "${top.capability}": see who covers it now.`)
        : nextStep('search_active', { limit: 10 }, 'No unmet demand recorded in this window: browse the Live listings.'),
    };
  },
});
