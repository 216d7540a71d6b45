// Read surfaces of SPEC.md 4.1 over the whole network, each computed from stored data:
// /lifecycle (listings per lane now, per day listed and gone Live, funnel stages, public events),
// /discovery-pack (where to find Rollcall, what is Live to try first, the quickstart and the read
// surfaces), /founding-dogfood (how Rollcall runs on its own tools: feedback about its surfaces,
// the themes its kernels applied, its own trail marks, the value tools' use network-wide).
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { laneCounts, dailyListings } from '../listings/counts.ts';
import { activeOrder, countActive, rowsInOrder } from '../listings/store.ts';
import { dailyFeedCounts } from '../feed/counts.ts';
import { funnelCounts, discountState } from '../funnel/stage-counts.ts';
import { sku, STAGES } from '../funnel/deal.ts';
import { feedbackSummary } from '../feedback/aggregates.ts';
import { SURVEY_VERSION } from '../feedback/survey.ts';
import { themeLabel } from '../feedback/themes.ts';
import { networkUsage } from '../metering/network-usage.ts';
import { depositCounts, outcomeCounts } from '../traces/counts.ts';
import { countCompositionEdges } from '../mesh/store.ts';
import { kernelTotals, themeApplications } from '../kernel/reads.ts';
import { SHIPPED_WINDOW } from './feedback-envelope.ts';

const DAY_MS = 86_400_000;
const LANES = ['queued', 'probing', 'active', 'failed', 'dormant'] as const;
const daysField = (d: number) => z.coerce.number().int().min(1).max(90).default(d).describe(`How many UTC days back (default ${d}, at most 90).`);
const sinceDayOf = (now: Date, days: number) => new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);

/** The read surfaces of SPEC.md 4.1 (each an operation with its REST route). */
export const READ_SURFACES = ['opportunities', 'learning', 'improvement-log', 'lifecycle', 'preferences', 'wtp', 'discovery-pack', 'founding-dogfood'] as const;

export const listingLifecycle = defineOperation({
  name: 'listing_lifecycle',
  title: 'Listing lifecycle',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'The listing lifecycle over the whole registry (GET /api/products/lifecycle): listings per kind and lane now (queued, probing, active, failed, dormant), the funnel stages (list, live, demo, feedback, discount, buy) with their counts, and per UTC day how many were listed, went Live and what public events happened.',
  input: z.object({ days: daysField(30) }),
  output: z.looseObject({ ok: z.literal(true), lanes: z.record(z.string(), z.record(z.string(), z.number())), stages: z.array(z.looseObject({ stage: z.string(), count: z.number() })), days: z.array(z.looseObject({ day: z.string() })) }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    const sinceDay = sinceDayOf(ctx.clock.now(), input.days);
    const lanes: Record<'agent' | 'mcp', Record<string, number>> = { agent: Object.fromEntries(LANES.map((l) => [l, 0])), mcp: Object.fromEntries(LANES.map((l) => [l, 0])) };
    for (const r of await laneCounts(ex)) lanes[r.kind][r.lane] = r.count;
    const total = (k: 'agent' | 'mcp') => Object.values(lanes[k]).reduce((a, b) => a + b, 0);
    const funnel = await funnelCounts(ex);
    const discount = await discountState(ex);
    const counts: Record<(typeof STAGES)[number], number> = {
      list: total('agent') + total('mcp'),
      live: lanes.agent.active! + lanes.mcp.active!,
      demo: funnel.demoed,
      feedback: funnel.feedbacked + funnel.founding_verified,
      discount: discount.codes_issued,
      buy: discount.codes_redeemed,
    };
    const listed = await dailyListings(ex, sinceDay);
    const events = await dailyFeedCounts(ex, sinceDay);
    const days = [...new Set([...listed.map((d) => d.day), ...events.map((e) => e.day)])].sort().map((day) => ({
      day,
      listed: listed.find((d) => d.day === day)?.listed ?? 0,
      went_live: listed.find((d) => d.day === day)?.went_live ?? 0,
      events: Object.fromEntries(events.filter((e) => e.day === day).map((e) => [e.type, e.count])),
    }));
    return {
      ok: true as const,
      window_days: input.days,
      lanes,
      totals: { agent: total('agent'), mcp: total('mcp') },
      stages: STAGES.map((stage) => ({ stage, count: counts[stage] })),
      funnel: { ...funnel, seats_left: discount.seats_left },
      days,
      transitions: 'queued -> probing -> active on a clean probe; failed on a failed probe or dirty checks; active -> dormant after 3 failed re-probes or no talk check-in after the grace; dormant -> active on a good probe plus a check-in (DESIGN.md)',
    };
  },
});

/** Discovery documents Rollcall serves (test/read-surfaces.test.ts checks each answers 200). */
export const DISCOVERY_LINKS = {
  discovery: '/discovery.json',
  ai_catalog: '/.well-known/ai-catalog.json',
  agent_card: '/.well-known/agent-card.json',
  mcp_server_card: '/.well-known/mcp/server-card.json',
  mcp_json: '/.well-known/mcp.json',
  skill: '/skill.json',
  agentmap: '/agentmap.json',
  openapi: '/openapi.json',
  llms: '/llms.txt',
  quickstart: '/api/products/quickstart',
} as const;

/** SPEC.md 9: onboarding pack version. */
export const PACK_VERSION = '1.1.0';
const STARTERS = 3;

export const discoveryPack = defineOperation({
  name: 'discovery_pack',
  title: 'Discovery pack',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'Everything an agent needs to find and start with Rollcall in one answer (GET /api/products/discovery-pack): the discovery documents and endpoints, how many listings are Live, the top Live agents and MCP servers to try first (with their demo links), the quickstart, the feedback survey version and the read surfaces.',
  input: z.object({}),
  output: z.looseObject({ ok: z.literal(true), links: z.record(z.string(), z.string()), live: z.looseObject({ agents: z.number(), mcps: z.number() }), try_first: z.array(z.looseObject({ listing_id: z.string() })) }),
  handler: async (ctx: Ctx) => {
    const ex = ctx.db.kysely;
    const base = ctx.config.publicBaseUrl;
    const active = await countActive(ex);
    const starters = [];
    for (const kind of ['agent', 'mcp'] as const) {
      const rows = await rowsInOrder(ex, (await activeOrder(ex, kind)).slice(0, STARTERS), 'active');
      for (const r of rows) starters.push({ listing_id: r.id, kind: r.kind, name: r.name, rank: r.rank, sku: sku(r.kind), take_demo_get: `${base}/api/products/demo?listing_id=${encodeURIComponent(r.id)}` });
    }
    return {
      ok: true as const,
      version: PACK_VERSION,
      base_url: base,
      links: { ...Object.fromEntries(Object.entries(DISCOVERY_LINKS).map(([k, p]) => [k, `${base}${p}`])), mcp: `${base}/api/mcp`, a2a: `${base}/api/a2a`, publish: `${base}/api/publish`, active: `${base}/api/listings/active` },
      live: { agents: active.agent, mcps: active.mcp },
      try_first: starters,
      quickstart: { url: `${base}${DISCOVERY_LINKS.quickstart}`, flow: ['improve_kernel (free, no demo order)', 'deposit_outcome (raises network outcomes, refills allowances)', 'leave_feedback (optional; adds a refill)'] },
      feedback: { url: `${base}/api/products/feedback`, survey_version: SURVEY_VERSION, ultra: 'rating 1-5 and one real sentence' },
      read_surfaces: Object.fromEntries(READ_SURFACES.map((s) => [s, `${base}/api/products/${s}`])),
    };
  },
});

export const foundingDogfood = defineOperation({
  name: 'founding_dogfood',
  title: 'Founding dogfood',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'How Rollcall runs on its own tools (GET /api/products/founding-dogfood): feedback about its own surfaces (count and average rating each), the feedback themes its kernels applied, the trail marks Rollcall itself left from feedback, outcomes reported, compositions, the founding funnel, and the value tools\' use across the network (units used, refilled, paid per event) in the window.',
  input: z.object({ days: daysField(30) }),
  output: z.looseObject({ ok: z.literal(true), feedback_on_rollcall: z.looseObject({ total: z.number() }), value_tools: z.array(z.looseObject({ event_id: z.string(), used: z.number() })) }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    const now = ctx.clock.now();
    const sinceDay = sinceDayOf(now, input.days);
    const summary = await feedbackSummary(ex);
    const totals = new Map<string, { event_id: string; used: number; refilled: number; paid: number; caller_days: number }>();
    for (const r of await networkUsage(ex, sinceDay)) {
      const t = totals.get(r.event_id) ?? { event_id: r.event_id, used: 0, refilled: 0, paid: 0, caller_days: 0 };
      t.used += r.used;
      t.refilled += r.refilled;
      t.paid += r.paid;
      t.caller_days += r.callers;
      totals.set(r.event_id, t);
    }
    const uses = await themeApplications(ex, SHIPPED_WINDOW);
    return {
      ok: true as const,
      window_days: input.days,
      since_day: sinceDay,
      principle: 'Rollcall improves itself with the loop it sells: feedback becomes themes, themes become rules and checks in new kernels, loop ticks rewrite the weakest check, and feedback marks the trails of the listings it names.',
      feedback_on_rollcall: { total: summary.total, structured: summary.structured, avg_rating: summary.avg_rating, by_surface: summary.by_surface },
      kernel_loop: {
        ...(await kernelTotals(ex)),
        themes_applied: [...uses.entries()].sort((a, b) => b[1].versions - a[1].versions || a[0].localeCompare(b[0])).map(([theme, u]) => ({ theme, label: themeLabel(theme), ...u })),
      },
      own_trail_marks: await depositCounts(ex, 'system', Date.parse(`${sinceDay}T00:00:00.000Z`)),
      outcomes: await outcomeCounts(ex, `${sinceDay}T00:00:00.000Z`),
      compositions: await countCompositionEdges(ex),
      funnel: await funnelCounts(ex),
      value_tools: [...totals.values()].sort((a, b) => b.used - a.used || a.event_id.localeCompare(b.event_id)),
    };
  },
});
