// GET /api/products/feedback (SPEC.md 2.4): the feedback list envelope. Every figure is computed
// from stored feedback (counted items: an identical body from one caller on one day counts once),
// the kernel versions it drove and the funnel's discount state. Items show public fields only
// (feedback/public.ts): never a caller's subject key or address, a discount code or a token.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import type { Executor } from '../platform/db/executor.ts';
import { badRequest } from '../platform/errors.ts';
import { feedbackSummary, findItem, latestItems, numericStats, optionCounts, recentThemeCounts, themeVotes } from '../feedback/aggregates.ts';
import { commonThemes } from '../feedback/store.ts';
import { publicItem } from '../feedback/public.ts';
import { IMPROVEMENTS, surveyCatalog, SURVEY_VERSION } from '../feedback/survey.ts';
import { SURFACES } from '../feedback/operations.ts';
import { themeLabel, type ThemeId } from '../feedback/themes.ts';
import { wtpAggregates } from '../feedback/wtp.ts';
import { FAIRNESS_BONUS } from '../metering/bonus.ts';
import { discountState } from '../funnel/stage-counts.ts';
import { themeApplications, kernelTotals } from '../kernel/reads.ts';
import { THEME_PARTS } from '../kernel/parts.ts';
import { appliedOf, communityRequests, COMMUNITY_APPLIED, COMMUNITY_MIN_COUNT } from '../kernel/operations.ts';

export const FEEDBACK_PAGE_DEFAULT = 20;
export const FEEDBACK_PAGE_MAX = 100;
/** Items whose themes make `recent_themes`. */
export const RECENT_THEME_ITEMS = 50;
/** Pain points count theme votes of this many days. */
export const PAIN_POINT_DAYS = 90;
/** Kernel versions read for what already shipped. */
export const SHIPPED_WINDOW = 200;
const DAY_MS = 86_400_000;

/** Where a survey improvement belongs (the first rule that matches its id). */
const SCOPES: [RegExp, string][] = [
  [/mesh|mcp_/, 'mesh'],
  [/loop|tick/, 'loop'],
  [/price|pricing|buy/, 'pricing'],
  [/network|stigmergy|exonomics/, 'network'],
  [/prompt|goal|eval|memory|skill/, 'kernel'],
  [/token|survey|demo/, 'funnel'],
  [/docs|example|schema/, 'docs'],
];
export const scopeOf = (option: string) => SCOPES.find(([re]) => re.test(option))?.[1] ?? 'product';

const themeChange = (theme: ThemeId) => `kernels get rule ${THEME_PARTS[theme].constraint.id} and check ${THEME_PARTS[theme].check.id}`;

/** SPEC.md 2.4 `already_done`: pain points being worked on, what shipped, clarity now, the log. */
export async function alreadyDone(ex: Executor, now: Date, base: string) {
  const votes = await themeVotes(ex, new Date(now.getTime() - PAIN_POINT_DAYS * DAY_MS).toISOString());
  // Exactly what improve_kernel applies to a new kernel now (its community deltas).
  const applied = new Set(appliedOf(await communityRequests(ex, undefined, COMMUNITY_APPLIED + 3)).map((c) => c.theme));
  const improvementVotes = (await optionCounts(ex, ['improvements'])).get('improvements') ?? new Map<string, number>();
  const painPoints = [
    ...votes.map((v) => ({
      label: themeLabel(v.theme),
      votes: v.count,
      scope: 'kernel',
      status: applied.has(v.theme) ? 'applied_to_new_kernels' : 'collecting_votes',
      what_changed: applied.has(v.theme) ? themeChange(v.theme) : `at ${COMMUNITY_MIN_COUNT}+ votes and among the top ${COMMUNITY_APPLIED}, ${themeChange(v.theme)}`,
      driven_by: { source: 'feedback themes', theme: v.theme, feedback_items: v.count, callers: v.callers, last_at: v.last_at },
    })),
    ...IMPROVEMENTS.filter((o) => (improvementVotes.get(o) ?? 0) > 0).map((o) => ({
      label: o.replace(/_/g, ' '),
      votes: improvementVotes.get(o)!,
      scope: scopeOf(o),
      status: 'requested_in_survey',
      what_changed: null,
      driven_by: { source: 'survey improvements', option: o },
    })),
  ].sort((a, b) => b.votes - a.votes || a.label.localeCompare(b.label));

  const uses = await themeApplications(ex, SHIPPED_WINDOW);
  const totals = await kernelTotals(ex);
  const read = Math.min(SHIPPED_WINDOW, totals.versions);
  const shipped: { product: string; change: string; scope: string; themes: string[] }[] = [...uses.entries()]
    .sort((a, b) => b[1].versions - a[1].versions || a[0].localeCompare(b[0]))
    .map(([theme, u]) => ({
      product: 'kernel',
      change: themeChange(theme),
      scope: `${u.versions} of the latest ${read} kernel versions (from community feedback ${u.from_community}, the caller's own feedback ${u.from_own_feedback}, loop ticks ${u.from_loop})`,
      themes: [theme],
    }));
  if (totals.ticks > 0) shipped.push({ product: 'loop', change: 'each tick strengthened or added the weakest eval check from feedback and outcomes', scope: `${totals.ticks} loop ticks over ${totals.callers} callers' kernels`, themes: [] });

  const scales = await numericStats(ex, ['kernel_clarity', 'loop_clarity', 'kernel_clarity_after', 'loop_clarity_after']);
  const clarity = (before: string, after: string) => {
    const b = scales.get(before);
    const a = scales.get(after);
    return {
      n: b?.n ?? 0,
      avg: b?.avg ?? null,
      after: a ? { n: a.n, avg: a.avg, fixed: a.high, fixed_share: Math.round((a.high / a.n) * 1000) / 1000 } : { n: 0, avg: null, fixed: 0, fixed_share: null },
      fixed_rule: 'an *_after answer of 4 or more counts as fixed',
    };
  };
  return {
    pain_points_in_progress: painPoints.slice(0, 20),
    already_shipped: shipped,
    clarity_now: { kernel: clarity('kernel_clarity', 'kernel_clarity_after'), loop: clarity('loop_clarity', 'loop_clarity_after') },
    log_url: `${base}/api/products/improvement-log`,
  };
}

export function openFeedback(base: string) {
  return {
    ultra: {
      tool: 'leave_feedback',
      rest: `POST ${base}/api/products/feedback`,
      body: { rating: 4, body: '<one real sentence about your experience>' },
      needs: 'rating 1-5 and one real sentence (at least 12 characters and 3 words); nothing else',
    },
    structured: {
      tool: 'leave_feedback',
      rest: `POST ${base}/api/products/feedback`,
      body: { mode: 'structured', rating: 4, body: '<one real sentence>', answers: { overall: 4, '...': 'every required question of survey.questions' } },
    },
    agent: { rest: `POST ${base}/api/products/agent`, body: { tool: 'submit_feedback', answers: { overall: 4, '...': 'every required question' } }, note: 'rating defaults to answers.overall and body to your text answers' },
    surfaces: SURFACES,
    pricing_fairness: `an answer of ${FAIRNESS_BONUS.at_most} or less raises your free ${FAIRNESS_BONUS.events.join(' and ')} allowance by ${FAIRNESS_BONUS.units} a day for ${FAIRNESS_BONUS.days} days (once per caller)`,
  };
}

export const DOCTRINE = [
  'Only real feedback counts: a rating 1-5 and one real sentence; junk is refused and grants nothing.',
  'The ultra path never requires the survey or the commerce questions; a founding seat or code comes from ultra alone.',
  'Every figure here is computed from stored feedback; themes come from the words people wrote.',
  'An identical sentence from one caller on one day counts once.',
  'Feedback changes the product: common themes become rules and checks in new kernels, and loop ticks rewrite the weakest check.',
  'What is shown is public: no addresses, e-mail addresses, tokens or discount codes.',
];

const listInput = z.object({
  limit: z.coerce.number().int().min(1).max(FEEDBACK_PAGE_MAX).default(FEEDBACK_PAGE_DEFAULT).describe(`Items per page (default ${FEEDBACK_PAGE_DEFAULT}, at most ${FEEDBACK_PAGE_MAX}), newest first.`),
  before: z.string().max(64).optional().describe('next_before of the previous page: items older than that one.'),
});

export const listFeedback = defineOperation({
  name: 'list_feedback',
  title: 'Feedback list',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'The feedback list envelope (GET /api/products/feedback, SPEC.md 2.4): public items newest first, summary (totals, average rating, by source, recent themes, discounts), insights (themes from real feedback text), the survey catalog, what is already done about it, willingness-to-pay aggregates, the discount state, how to leave feedback, the doctrine.',
  input: listInput,
  output: z.looseObject({
    ok: z.literal(true),
    items: z.array(z.looseObject({ id: z.string(), rating: z.number(), body: z.string() })),
    summary: z.looseObject({ total: z.number(), structured: z.number(), avg_rating: z.number().nullable(), by_source: z.record(z.string(), z.number()), recent_themes: z.array(z.unknown()), discounts_issued: z.number(), discounts_redeemed: z.number() }),
    insights: z.looseObject({ themes: z.array(z.looseObject({ theme: z.string(), count: z.number() })), real_only: z.literal(true) }),
    survey: z.looseObject({ version: z.string(), questions: z.array(z.unknown()) }),
    already_done: z.looseObject({ pain_points_in_progress: z.array(z.unknown()), already_shipped: z.array(z.unknown()), clarity_now: z.looseObject({ kernel: z.unknown(), loop: z.unknown() }), log_url: z.string() }),
    wtp: z.looseObject({ n: z.number(), zeros: z.number(), by_sku: z.record(z.string(), z.unknown()), samples: z.array(z.unknown()), recommendations: z.array(z.unknown()) }),
    discount: z.looseObject({ codes_issued: z.number(), codes_redeemed: z.number(), payments_open: z.boolean() }),
    open_feedback: z.looseObject({}),
    doctrine: z.array(z.string()),
    note: z.string(),
  }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    const base = ctx.config.publicBaseUrl;
    let before: { created_at: string; id: string } | undefined;
    if (input.before !== undefined) {
      before = await findItem(ex, input.before);
      if (!before) throw badRequest('invalid_cursor', 'before is not a feedback id from this list; start again without it', 'before');
    }
    const items = await latestItems(ex, input.limit + 1, before);
    const page = items.slice(0, input.limit);
    const summary = await feedbackSummary(ex);
    const discount = await discountState(ex);
    const themes = await commonThemes(ex, undefined, 12);
    return {
      ok: true as const,
      items: page.map(publicItem),
      next_before: items.length > input.limit ? page[page.length - 1]!.id : null,
      summary: {
        total: summary.total,
        structured: summary.structured,
        with_answers: summary.with_answers,
        avg_rating: summary.avg_rating,
        by_source: summary.by_source,
        recent_themes: (await recentThemeCounts(ex, RECENT_THEME_ITEMS)).map((t) => ({ ...t, label: themeLabel(t.theme) })),
        discounts_issued: discount.codes_issued,
        discounts_redeemed: discount.codes_redeemed,
      },
      insights: {
        themes: themes.map((t) => ({ ...t, label: themeLabel(t.theme) })),
        real_only: true as const,
        by_surface: summary.by_surface,
      },
      survey: surveyCatalog(),
      already_done: await alreadyDone(ex, ctx.clock.now(), base),
      wtp: await wtpAggregates(ex),
      discount,
      open_feedback: openFeedback(base),
      doctrine: DOCTRINE,
      note: `Counted items only (real, and an identical sentence from one caller on one day once); survey ${SURVEY_VERSION}. Items show public fields: e-mail addresses, tokens and addresses in text are replaced, and nothing says who the caller is beyond the agent_name it gave.`,
    };
  },
});
