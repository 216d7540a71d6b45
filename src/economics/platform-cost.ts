// get_platform_cost: the service's own measured cost. Requests, tool calls and probe fetches come
// from the usage counters (platform/usage: counted where they happen, batched per UTC day; this
// instance's unflushed counts are flushed first), storage from the rows each table holds now, and
// the estimate multiplies them by the configured unit costs (COST_USD_* in src/config.ts).
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { COUNTERS, countersSince } from '../platform/usage/counters.ts';
import { tableRowCounts } from '../platform/db/row-counts.ts';
import type { UnitCosts } from '../config.ts';
import { daysArg, READ_ONLY, sinceDayOf } from './window.ts';

const TOP_TOOLS = 10;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The estimate of one day's cost in USD (pure): traffic by its counts, storage pro rata of a 30-day month. */
export function dayCost(c: UnitCosts, day: { requests: number; tool_calls: number; probe_fetches: number }, rows: number) {
  const requests = (day.requests / 1e6) * c.perMillionRequests;
  const toolCalls = (day.tool_calls / 1e6) * c.perMillionToolCalls;
  const probes = (day.probe_fetches / 1e3) * c.perThousandProbeFetches;
  const storage = ((rows / 1e6) * c.perMillionRowsMonth) / 30;
  return { requests: round6(requests), tool_calls: round6(toolCalls), probe_fetches: round6(probes), storage: round6(storage), total: round6(requests + toolCalls + probes + storage) };
}

export const getPlatformCost = defineOperation({
  name: 'get_platform_cost',
  title: "Rollcall's own measured cost",
  annotations: READ_ONLY,
  description:
    'The service\'s own measured cost per UTC day, network-wide: HTTP requests, tool calls by tool, probe fetches, rows stored per table, and a USD estimate from the configured unit costs.',
  input: z.strictObject({ days: daysArg(7) }),
  output: z.looseObject({ ok: z.literal(true), totals: z.looseObject({ requests: z.number(), tool_calls: z.number(), probe_fetches: z.number(), rows: z.number() }), estimate_usd: z.looseObject({ total: z.number() }), days: z.array(z.looseObject({ day: z.string() })) }),
  handler: async (ctx: Ctx, input) => {
    await ctx.usage.flush();
    const ex = ctx.db.kysely;
    const sinceDay = sinceDayOf(ctx.clock.now(), input.days);
    const counters = await countersSince(ex, sinceDay);
    const tables = await tableRowCounts(ctx.db);
    const rows = tables.reduce((s, t) => s + t.rows, 0);
    const costs = ctx.config.unitCosts;

    const byDay = new Map<string, { day: string; requests: number; tool_calls: number; probe_fetches: number }>();
    const tools = new Map<string, number>();
    for (const c of counters) {
      if (c.name.startsWith('tool:')) {
        tools.set(c.name.slice(5), (tools.get(c.name.slice(5)) ?? 0) + c.n);
        continue;
      }
      const d = byDay.get(c.day) ?? { day: c.day, requests: 0, tool_calls: 0, probe_fetches: 0 };
      if (c.name === COUNTERS.requests) d.requests += c.n;
      else if (c.name === COUNTERS.toolCalls) d.tool_calls += c.n;
      else if (c.name === COUNTERS.probeFetches) d.probe_fetches += c.n;
      byDay.set(c.day, d);
    }
    const days = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)).map((d) => ({ ...d, estimate_usd: dayCost(costs, d, rows) }));
    const totals = {
      requests: days.reduce((s, d) => s + d.requests, 0),
      tool_calls: days.reduce((s, d) => s + d.tool_calls, 0),
      probe_fetches: days.reduce((s, d) => s + d.probe_fetches, 0),
      rows,
    };
    // Storage is charged for every day of the window, traffic only for the days it happened.
    const traffic = dayCost(costs, totals, 0);
    const storage = round6(dayCost(costs, { requests: 0, tool_calls: 0, probe_fetches: 0 }, rows).storage * input.days);
    return {
      ok: true as const,
      window_days: input.days,
      since_day: sinceDay,
      totals,
      estimate_usd: { requests: traffic.requests, tool_calls: traffic.tool_calls, probe_fetches: traffic.probe_fetches, storage, total: round6(traffic.total + storage) },
      unit_costs_usd: {
        per_million_requests: costs.perMillionRequests,
        per_million_tool_calls: costs.perMillionToolCalls,
        per_thousand_probe_fetches: costs.perThousandProbeFetches,
        per_million_rows_month: costs.perMillionRowsMonth,
      },
      top_tools: [...tools.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP_TOOLS).map(([tool, calls]) => ({ tool, calls })),
      storage: { rows, tables: tables.filter((t) => t.rows > 0) },
      days,
    };
  },
});
