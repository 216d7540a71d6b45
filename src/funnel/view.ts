// The funnel's part of the listing view (SPEC.md 2.1): flags, badge, the ready-made demo request,
// the founding path, the deal, the activation stage and the suggested next call (SPEC's `next`
// string, and the same as a `next_step`).
import type { ListingRow } from '../listings/store.ts';
import type { ListingViewPart } from '../listings/view-part.ts';
import { badgeFor, BADGE_LABEL, RANK_DELTA, type FunnelFlags } from './badge.ts';
import { curlPost, dealObject, sku, STAGES, type Stage } from './deal.ts';
import { loadFunnel, NO_FUNNEL } from './store.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';

/** A suggested tool call as one line: `tool {"arg": ...}`. */
export const toolLine = (tool: string, args: Record<string, unknown>): string => `${tool} ${JSON.stringify(args)}`;

/** A verdict is the caller's own: the rating and the body are left for it to write (null), never suggested. */
const feedbackLine = (row: ListingRow): string => toolLine('leave_feedback', { listing_id: row.id, agent_name: row.name, rating: null, body: null });

function stageOf(row: ListingRow, flags: FunnelFlags): Stage {
  if (row.lane !== 'active') return 'list';
  // A founding seat is the discount, whole: the full product free, nothing left to buy.
  if (flags.founding_verified) return 'discount';
  if (flags.feedbacked) return 'feedback';
  if (flags.demoed) return 'demo';
  return 'live';
}

function nextFor(row: ListingRow, stage: Stage): string {
  if (row.duplicate_of) return toolLine('check_status', { id: row.duplicate_of });
  if (row.lane === 'failed') return `${toolLine('list_yourself', { url: row.url })} (fix: ${row.lane_reason ?? 'probe failed'}, then republish to re-probe)`;
  if (stage === 'list') return toolLine('check_status', { id: row.id });
  if (stage === 'live') return toolLine('take_demo', { listing_id: row.id });
  if (stage === 'demo') return feedbackLine(row);
  return toolLine('improve_kernel', { listing_id: row.id, agent_name: row.name, goals: null });
}

/**
 * The same suggestion as `next` (SPEC's string), in the shape every answer shares: a call valid as
 * given once the caller adds what `needs` names.
 */
function nextStepFor(row: ListingRow, stage: Stage): NextStep {
  if (row.duplicate_of) return nextStep('check_status', { id: row.duplicate_of }, `This URL reaches listing ${row.duplicate_of}: that listing is the one that counts.`);
  if (row.lane === 'failed') return nextStep('list_yourself', { url: row.url }, `The last probe failed (${row.lane_reason ?? 'probe failed'}): fix it, then publish again to re-probe.`);
  if (stage === 'list') return nextStep('check_status', { id: row.id }, 'Poll until lane is active: the probe makes it Live.');
  if (stage === 'live') return nextStep('take_demo', { listing_id: row.id }, 'Live: take the free demo.');
  if (stage === 'demo') {
    return nextStep('leave_feedback', { listing_id: row.id, agent_name: row.name }, 'Demoed: rate it (rating, 1-5) and say in one sentence of your own (body) what worked or did not; with the owner token it takes a founding seat.', ['rating', 'body', 'owner_token']);
  }
  // Past the feedback the founding path is done: the next thing worth doing is what it opened.
  return nextStep('improve_kernel', { listing_id: row.id, agent_name: row.name }, 'The path is done: the value tools are next. improve_kernel builds your agent\'s kernel and system prompt from your goals (in your own words), its card quoted as data.', ['goals']);
}

function funnelFields(row: ListingRow, state: FunnelFlags | undefined, base: string) {
  const flags = state ?? NO_FUNNEL;
  const badge = badgeFor(flags);
  const stage = stageOf(row, flags);
  const demoSku = sku(row.kind);
  const demoUrl = `${base}/api/products/demo`;
  const demoBody =
    row.kind === 'agent'
      ? { listing_id: row.id, kind: row.kind, name: row.name, sku: demoSku, agent_card_url: row.url }
      : { listing_id: row.id, kind: row.kind, name: row.name, sku: demoSku, mcp_url: row.url };
  const takeDemoGet = `${base}/api/products/demo?listing_id=${encodeURIComponent(row.id)}`;
  // The listing's demo request is take_demo (and take_demo_get): the deal beside it names the demo
  // endpoint without repeating that request (its take_demo_body and curl are null, as the active list's).
  const deal = dealObject(base);
  const stageIndex = STAGES.indexOf(stage);
  return {
    demoed: flags.demoed,
    feedbacked: flags.feedbacked,
    founding_verified: flags.founding_verified,
    badge,
    badge_label: BADGE_LABEL[badge],
    rank_delta: RANK_DELTA[badge],
    take_demo: {
      name: row.name,
      description: `Free ${demoSku} demo for ${row.name}`,
      listing_id: row.id,
      kind: row.kind,
      sku: demoSku,
      method: 'POST' as const,
      url: demoUrl,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: demoBody,
      curl: curlPost(demoUrl, demoBody),
      deal: { founding_free_seats: deal.founding_free_seats, percent_off: deal.percent_off, no_stripe: deal.no_stripe },
      next_after_demo: feedbackLine(row),
      funnel: STAGES,
    },
    take_demo_get: takeDemoGet,
    complete_founding_path: {
      tool: 'complete_founding_path',
      arguments: {
        listing_id: row.id,
        agent_name: row.name,
        audience: row.kind,
        rating: null,
        body: null,
      },
      // What only the caller writes: its rating (1-5), one sentence of its own, and the owner token.
      needs: ['rating', 'body', 'owner_token'],
    },
    deal,
    activation: {
      stage,
      next: flags.founding_verified ? null : (STAGES[stageIndex + 1] ?? null),
      done: STAGES.slice(0, stageIndex + 1),
    },
    next: nextFor(row, stage),
    next_step: nextStepFor(row, stage),
  };
}

export const funnelViewPart: ListingViewPart<FunnelFlags, ReturnType<typeof funnelFields>> = {
  load: loadFunnel,
  fields: (row, state, v) => funnelFields(row, state, v.config.publicBaseUrl),
};
