// zero_mc_pack: the zero-marginal-cost bundle: what an agent can take at no cost right now. The
// always-free events (with their daily cap) and the free units the caller has used and has left
// today on every metered event (metering's caller day, as list_event_pricing shows it), the
// refills it can still earn today, free demo artifacts of the top Live listings (listings,
// funnel), and the discovery documents. Composed here because it reads the registry's discovery
// links beside several domains.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { activeOrder, rowsInOrder } from '../listings/store.ts';
import { sku } from '../funnel/deal.ts';
import { EVENTS } from '../metering/events.ts';
import { REFILLS } from '../metering/refills.ts';
import { resolveSubject } from '../metering/caller.ts';
import { callerDay, grantsLeft, subjectView, usageOf } from '../metering/usage.ts';
import { callerArgs } from '../metering/operations.ts';
import { DISCOVERY_LINKS } from './network-surfaces.ts';

const DEMOS_PER_KIND = 3;

export const zeroMcPack = defineOperation({
  name: 'zero_mc_pack',
  title: 'The zero-marginal-cost pack',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'Everything free for you now: the always-free tools (never charged; capped per day, daily_cap), your free units used and left today per metered event, refills you can still earn, free demos of top Live listings, the skills export and discovery documents. Identify as for a metered call.',
  input: z.strictObject(callerArgs),
  output: z.looseObject({ ok: z.literal(true), always_free: z.array(z.looseObject({ event_id: z.string(), remaining_today: z.number() })), free_units_today: z.number(), demos: z.array(z.looseObject({ listing_id: z.string() })), links: z.record(z.string(), z.string()) }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    const base = ctx.config.publicBaseUrl;
    const subject = await resolveSubject(ex, ctx, { listing_id: input.listing_id, agent_name: input.agent_name }, { record: false });
    const day = await callerDay(ex, subject, ctx.clock.now());
    const allowances = EVENTS.map((e) => {
      const u = usageOf(day, e.event_id);
      // The same figures list_event_pricing shows for this caller (metering's usage.ts).
      return { event_id: e.event_id, product: e.product, always_free: e.always_free, ...(e.always_free ? { daily_cap: e.free_per_day } : { free_per_day: e.free_per_day }), used_today: u.used, refills_today: u.refills, remaining_today: u.remaining };
    });
    const demos = [];
    for (const kind of ['agent', 'mcp'] as const) {
      for (const r of await rowsInOrder(ex, (await activeOrder(ex, kind)).slice(0, DEMOS_PER_KIND), 'active')) {
        demos.push({ listing_id: r.id, kind: r.kind, name: r.name, sku: sku(r.kind), take_demo: { tool: 'take_demo', args: { listing_id: r.id } }, url: `${base}/api/products/demo?listing_id=${encodeURIComponent(r.id)}` });
      }
    }
    return {
      ok: true as const,
      caller: subjectView(subject),
      day: day.day,
      always_free: allowances.filter((a) => a.always_free).map(({ always_free: _, ...a }) => a),
      free_allowances: allowances.filter((a) => !a.always_free).map(({ always_free: _, ...a }) => a),
      free_units_today: allowances.reduce((s, a) => s + a.remaining_today, 0),
      refills_left_today: REFILLS.map((r) => ({ action: r.action, left: grantsLeft(day, r.action), events: r.events })),
      demos,
      artifacts: {
        export_skills: { tool: 'export_skills', get: `${base}/api/products/export?token=<access_token>&format=skills`, needs: 'the access token a demo issues (free)' },
        install_product: { tool: 'install_product', needs: 'the same access token' },
      },
      links: { ...Object.fromEntries(Object.entries(DISCOVERY_LINKS).map(([k, p]) => [k, `${base}${p}`])), mcp: `${base}/api/mcp`, a2a: `${base}/api/a2a` },
    };
  },
});
