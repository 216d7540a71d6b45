// GET /api/products/learning and /improvement-log (SPEC.md 4.1 read surfaces): what the network
// learned from feedback and what it changed. Learning: feedback per day (items, average rating,
// themes), the themes with their votes and which ones new kernels apply now, and kernel versions
// per day. The log: the latest kernel versions network-wide with why they changed and which parts,
// never a caller's goals, prompt or name (kernel/reads.ts).
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { dailyFeedback, themeVotes } from '../feedback/aggregates.ts';
import { themeLabel } from '../feedback/themes.ts';
import { dailyVersions, kernelTotals, themeApplications, versionLog } from '../kernel/reads.ts';
import { appliedOf, communityRequests, COMMUNITY_APPLIED, COMMUNITY_MIN_COUNT, REQUEST_RATING } from '../kernel/operations.ts';
import { SHIPPED_WINDOW } from './feedback-envelope.ts';

const DAY_MS = 86_400_000;
const daysField = (d: number) => z.coerce.number().int().min(1).max(90).default(d).describe(`How many UTC days back (default ${d}, at most 90).`);

export const productLearning = defineOperation({
  name: 'product_learning',
  title: 'What Rollcall learned',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'What Rollcall learned from feedback (GET /api/products/learning): feedback per UTC day (items, average rating, themes), the themes with their votes and callers, the ones new kernels apply now (community deltas), how often kernels applied each theme, and kernel versions and loop ticks per day. All computed from stored feedback and kernel versions.',
  input: z.object({ days: daysField(14) }),
  output: z.looseObject({ ok: z.literal(true), days: z.array(z.looseObject({ day: z.string() })), themes: z.array(z.looseObject({ theme: z.string(), count: z.number() })) }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    const now = ctx.clock.now();
    const sinceDay = new Date(now.getTime() - (input.days - 1) * DAY_MS).toISOString().slice(0, 10);
    const feedback = await dailyFeedback(ex, sinceDay);
    const kernels = await dailyVersions(ex, sinceDay);
    const days = [...new Set([...feedback.map((d) => d.day), ...kernels.map((d) => d.day)])].sort().map((day) => {
      const f = feedback.find((d) => d.day === day);
      const k = kernels.find((d) => d.day === day);
      return { day, feedback_items: f?.items ?? 0, avg_rating: f?.avg_rating ?? null, themes: f?.themes ?? {}, kernels_built: k?.improves ?? 0, loop_ticks: k?.ticks ?? 0 };
    });
    const votes = await themeVotes(ex, `${sinceDay}T00:00:00.000Z`);
    const applied = appliedOf(await communityRequests(ex, undefined, COMMUNITY_APPLIED + 3));
    const uses = await themeApplications(ex, SHIPPED_WINDOW);
    const rated = days.filter((d) => d.avg_rating !== null);
    const half = Math.floor(rated.length / 2);
    const avg = (xs: typeof rated) => (xs.length ? Math.round((xs.reduce((s, d) => s + d.avg_rating! * d.feedback_items, 0) / xs.reduce((s, d) => s + d.feedback_items, 0)) * 100) / 100 : null);
    return {
      ok: true as const,
      window_days: input.days,
      since_day: sinceDay,
      days,
      themes: votes.map((v) => ({ theme: v.theme, label: themeLabel(v.theme), count: v.count, callers: v.callers, last_at: v.last_at, applied_by_kernels: uses.get(v.theme)?.versions ?? 0 })),
      applied_to_new_kernels: applied.map((c) => ({ theme: c.theme, label: themeLabel(c.theme), count: c.count })),
      rule: `improve_kernel applies the ${COMMUNITY_APPLIED} themes others most ask for (feedback rated ${REQUEST_RATING} or less) that at least ${COMMUNITY_MIN_COUNT} items name, each rule citing them`,
      rating_trend: rated.length >= 2 ? { earlier: avg(rated.slice(0, half)), later: avg(rated.slice(half)) } : null,
      kernels: await kernelTotals(ex),
    };
  },
});

export const improvementLog = defineOperation({
  name: 'improvement_log',
  title: 'Improvement log',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'The improvement log (GET /api/products/improvement-log): the latest kernel versions network-wide, newest first, each with why it changed (the loop\'s reason or what it was built from), the feedback themes it applied and which parts changed (ids and counts only: a caller\'s goals and prompt stay private).',
  input: z.object({
    limit: z.coerce.number().int().min(1).max(100).default(30).describe('Entries (default 30, at most 100).'),
    kind: z.enum(['improve', 'tick']).optional().describe('Only kernels built (improve) or only loop ticks (tick).'),
  }),
  output: z.looseObject({ ok: z.literal(true), entries: z.array(z.looseObject({ id: z.string(), kind: z.string(), reason: z.string() })) }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    return {
      ok: true as const,
      totals: await kernelTotals(ex),
      entries: (await versionLog(ex, input.limit, input.kind)).map((e) => ({ ...e, themes: e.themes.map((t) => ({ ...t, label: themeLabel(t.theme) })) })),
    };
  },
});
