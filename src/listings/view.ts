// The public shape of a listing (SPEC.md 2.1). contact_email and other private columns never
// leave through here.
import type { ListingRow } from './store.ts';
import { categoryLabel } from './categories.ts';
import { badgeFor, BADGE_LABEL, RANK_DELTA, type FunnelFlags } from '../funnel/badge.ts';
import { curlPost, dealObject, sku, STAGES, type Stage } from '../funnel/deal.ts';
import { talkState } from '../talk/presence.ts';
import { hoursBetween } from '../platform/clock.ts';

export interface ViewContext {
  base: string;
  now: Date;
  graceDays: number;
}

const flagsOf = (row: ListingRow): FunnelFlags => ({
  demoed: row.demoed === 1,
  feedbacked: row.feedbacked === 1,
  founding_verified: row.founding_verified === 1,
});

/** A suggested tool call as one line: `tool {"arg": ...}`. */
export const toolLine = (tool: string, args: Record<string, unknown>): string => `${tool} ${JSON.stringify(args)}`;

function stageOf(row: ListingRow, flags: FunnelFlags): Stage {
  if (row.lane !== 'active') return 'list';
  if (flags.founding_verified || flags.feedbacked) return 'feedback';
  if (flags.demoed) return 'demo';
  return 'live';
}

function nextFor(row: ListingRow, stage: Stage): string {
  if (row.lane === 'failed') return toolLine('list_yourself', { url: row.url }) + ` (fix: ${row.lane_reason ?? 'probe failed'}, then republish to re-probe)`;
  if (stage === 'list') return toolLine('check_status', { id: row.id });
  if (stage === 'live') return toolLine('take_demo', { listing_id: row.id });
  if (stage === 'demo') return toolLine('leave_feedback', { listing_id: row.id, agent_name: row.name, rating: 5, body: '<one honest sentence>' });
  return toolLine('check_status', { id: row.id });
}

export function listingView(row: ListingRow, v: ViewContext) {
  const flags = flagsOf(row);
  const badge = badgeFor(flags);
  const stage = stageOf(row, flags);
  const next = nextFor(row, stage);
  const demoSku = sku(row.kind);
  const demoUrl = `${v.base}/api/products/demo`;
  const demoBody =
    row.kind === 'agent'
      ? { listing_id: row.id, kind: row.kind, name: row.name, sku: demoSku, agent_card_url: row.url }
      : { listing_id: row.id, kind: row.kind, name: row.name, sku: demoSku, mcp_url: row.url };
  const takeDemoGet = `${v.base}/api/products/demo?listing_id=${encodeURIComponent(row.id)}`;
  const deal = dealObject(v.base, { url: takeDemoGet, body: demoBody });
  const stageIndex = STAGES.indexOf(stage);

  return {
    listing_id: row.id,
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    url: row.url,
    category_id: row.category_id,
    category_label: categoryLabel(row.category_id),
    lane: row.lane,
    lane_reason: row.lane_reason,
    checks_clean: row.checks_clean === 1,
    probe: {
      ok: row.probe_ok === 1,
      handshake: row.probe_handshake ?? 'pending',
      score: row.probe_score,
      probed_at: row.probed_at,
      target: row.probe_target ?? row.url,
      age_hours: row.probed_at ? Math.round(hoursBetween(row.probed_at, v.now) * 100) / 100 : null,
    },
    talk: talkState(row, v.now, v.graceDays),
    ...(row.kind === 'agent' ? { agent_card_url: row.url } : { remote_url: row.url }),
    website: row.website,
    demoed: flags.demoed,
    feedbacked: flags.feedbacked,
    founding_verified: flags.founding_verified,
    badge,
    badge_label: BADGE_LABEL[badge],
    rank_delta: RANK_DELTA[badge],
    rank: row.rank,
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
      next_after_demo: toolLine('leave_feedback', { listing_id: row.id, agent_name: row.name, rating: 5, body: '<one honest sentence>' }),
      funnel: STAGES,
    },
    take_demo_get: takeDemoGet,
    complete_founding_path: {
      tool: 'complete_founding_path',
      arguments: {
        listing_id: row.id,
        agent_name: row.name,
        audience: row.kind,
        rating: 5,
        body: '<one honest sentence about what worked or did not>',
      },
    },
    deal,
    activation: {
      stage,
      next: STAGES[stageIndex + 1] ?? null,
      done: STAGES.slice(0, stageIndex + 1),
    },
    next,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
