// get_incentives (TOOLS.md): for one listing, what it can do now that raises its rank or refills
// its allowance, computed from the domains that own each part: the funnel's badge and rank delta,
// talk presence, the listing's metering day (refills left, allowance), and the trace field
// (trail strength, Live partners it is linked with and has not endorsed today).
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { nextStep } from '../platform/next-step.ts';
import { requireListing } from '../listings/operations.ts';
import { findListingsByIds } from '../listings/store.ts';
import { subjectOfListing } from '../metering/caller.ts';
import { REFILLS } from '../metering/refills.ts';
import { VALUE_EVENTS } from '../metering/events.ts';
import { callerDay, grantsLeft, usageOf } from '../metering/usage.ts';
import { utcDay } from '../metering/day.ts';
import { CHANNELS } from '../traces/channels.ts';
import { depositsOfDay, edgesOf, trailStrength } from '../traces/store.ts';
import { subjectKey } from '../traces/subjects.ts';
import { presenceOf } from '../talk/view.ts';
import { talkState } from '../talk/presence.ts';
import { loadFunnel, NO_FUNNEL } from '../funnel/store.ts';
import { badgeFor, BADGE_LABEL, RANK_DELTA } from '../funnel/badge.ts';

/** Pair edges read per channel when looking for partners. */
const PARTNER_EDGES = 25;

interface Action {
  do: string;
  tool: string | null;
  args: Record<string, unknown>;
  gain: string;
  why: string;
  /** Fields the caller writes itself (its rating and sentence), left out of `args`. */
  needs?: string[];
}

export const getIncentives = defineOperation({
  name: 'get_incentives',
  title: 'What raises a listing\'s rank or refills its allowance now',
  description:
    'For a listing: the actions that would raise its rank or refill its free allowance today, its talk presence, and Live partners it has not endorsed today, each with the tool to call. Use it to decide what to do next for your listing.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({ listing_id: z.string().min(1).max(64).describe('The listing to look at.') }),
  output: z.looseObject({
    ok: z.literal(true),
    listing: z.looseObject({ id: z.string(), name: z.string(), lane: z.string() }),
    rank: z.looseObject({ total: z.number(), badge: z.string(), rank_delta: z.number(), trail_strength: z.number() }),
    talk: z.looseObject({ active: z.boolean(), mode: z.string() }),
    refills: z.array(z.looseObject({ action: z.string(), grants_left_today: z.number() })),
    partners: z.looseObject({ unendorsed_live: z.array(z.looseObject({ listing_id: z.string(), name: z.string() })) }),
    actions: z.array(z.looseObject({ do: z.string(), gain: z.string(), why: z.string() })),
    next_step: z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() }),
  }),
  async handler(ctx, input) {
    const ex = ctx.db.kysely;
    const now = ctx.clock.now();
    const row = await requireListing(ctx, input.listing_id);
    const subject = subjectOfListing(row);
    const [flags, strength, presence, day] = await Promise.all([
      loadFunnel(ex, [row.id]).then((m) => m.get(row.id) ?? NO_FUNNEL),
      trailStrength(ex, [row.id], now).then((m) => m.get(row.id) ?? 0),
      presenceOf(ex, [row.id]).then((m) => m.get(row.id)),
      callerDay(ex, subject, now),
    ]);
    const badge = badgeFor(flags);
    const talk = talkState({ live_since: row.live_since, talk_last_at: presence?.last_at ?? null, claimed_at: presence?.claimed_at ?? null }, now, ctx.config.talkGraceDays);

    // Partners: Live listings sharing a pair edge with this one on any channel (used together,
    // composed, endorsed); "endorsed today" = this listing deposited attraction on the pair today.
    const edges = (await Promise.all(CHANNELS.map((c) => edgesOf(ex, row.id, c, now, PARTNER_EDGES)))).flat();
    const partnerIds = [...new Set(edges.map((e) => (e.a === row.id ? e.b : e.a)).filter((id): id is string => id !== null && id !== row.id))];
    const live = (await findListingsByIds(ex, partnerIds)).filter((p) => p.lane === 'active');
    const today = utcDay(now);
    const endorsedToday = await Promise.all(
      live.map(async (p) => (await depositsOfDay(ex, subject.key, today, { subject_key: subjectKey({ kind: 'pair', listing_id: row.id, partner_listing_id: p.id }).key, channel: 'attraction' })) > 0),
    );
    const unendorsed = live.filter((_, i) => !endorsedToday[i]).map((p) => ({ listing_id: p.id, name: p.name }));
    const endorsed = live.filter((_, i) => endorsedToday[i]).map((p) => ({ listing_id: p.id, name: p.name }));

    const refills = REFILLS.map((r) => ({ action: r.action, events: [...r.events], grants_left_today: grantsLeft(day, r.action), max_per_day: r.max_per_day, honest_when: r.condition }));
    const left = new Map(refills.map((r) => [r.action, r.grants_left_today]));
    const actions: Action[] = [];
    if (row.lane !== 'active') {
      actions.push({ do: 'get Live', tool: 'check_status', args: { id: row.id }, gain: 'a place in the active list (rank counts only there)', why: `the listing is ${row.lane}${row.lane_reason ? `: ${row.lane_reason}` : ''}` });
    }
    if (badge === 'never_demoed') {
      actions.push({ do: 'take the free demo', tool: 'take_demo', args: { listing_id: row.id }, gain: `rank +${RANK_DELTA.demoed_no_feedback - RANK_DELTA.never_demoed}`, why: `badge never_demoed costs ${RANK_DELTA.never_demoed}; a demo is ${RANK_DELTA.demoed_no_feedback}` });
    }
    if (badge === 'never_demoed' || badge === 'demoed_no_feedback') {
      actions.push({
        do: 'leave real feedback (a 1-5 rating and one honest sentence)',
        tool: 'leave_feedback',
        args: { listing_id: row.id, agent_name: row.name },
        needs: ['rating', 'body'],
        gain: `rank +${RANK_DELTA.founding_verified - RANK_DELTA[badge]} with a founding seat (badge founding_verified) while seats last${left.get('leave_feedback') ? ', and one leave_feedback refill' : ''}`,
        why: `badge ${badge} has rank_delta ${RANK_DELTA[badge]}`,
      });
    } else if (left.get('leave_feedback')) {
      actions.push({ do: 'leave real feedback', tool: 'leave_feedback', args: { listing_id: row.id, agent_name: row.name }, needs: ['rating', 'body'], gain: 'one free unit of improve_kernel, run_loop_tick, mesh_match, collab_session_open', why: `${left.get('leave_feedback')} leave_feedback refill(s) left today` });
    }
    if (talk.required && (!talk.active || talk.mode === 'grace')) {
      actions.push({ do: 'check in on talk (POST /api/talk with the owner token)', tool: null, args: { listing_id: row.id }, gain: 'stays Live (no check-in after the grace makes it dormant and drops it from the active list)', why: talk.reason });
    }
    if (unendorsed.length && left.get('endorse')) {
      actions.push({ do: `endorse a Live partner (${unendorsed.length} not endorsed today)`, tool: 'endorse', args: { listing_id: row.id, partner_listing_id: unendorsed[0]!.listing_id }, gain: 'one free unit of mesh_match and collab_session_step, and attraction on the pair', why: `${left.get('endorse')} endorse refill(s) left today` });
    }
    if (left.get('leave_trace')) {
      actions.push({ do: 'leave a real trace', tool: 'leave_trace', args: { listing_id: row.id, kind: 'attraction' }, needs: ['body'], gain: 'one free unit of mesh_match and network_sense; attraction raises trail strength, part of rank', why: `${left.get('leave_trace')} leave_trace refill(s) left today; body: a few words of your own on what worked` });
    }
    if (left.get('deposit_outcome')) {
      actions.push({ do: 'deposit an outcome after a value tool', tool: 'deposit_outcome', args: { listing_id: row.id }, needs: ['ok', 'quality', 'body'], gain: 'one free unit of improve_kernel, run_loop_tick, collab_session_step; raises network value', why: `${left.get('deposit_outcome')} deposit_outcome refill(s) left today (only after a value tool that day); say whether the run worked (ok), how well (quality, 0-1) and what it achieved (body)` });
    }

    // The next call names a tool that exists with valid arguments: the listing's refills, read as
    // its owner (the owner token goes as the Bearer), or its status.
    const top = actions[0];
    const next =
      row.lane === 'active'
        ? nextStep('get_reciprocity', { listing_id: row.id }, top ? `Next: ${top.do} (${top.gain}). The refill table says what counts.` : 'Nothing to raise right now: see the refills for later.', ['owner_token'])
        : nextStep('check_status', { id: row.id }, top ? `Next: ${top.do} (${top.gain}).` : 'The listing\'s full status.');
    return {
      ok: true as const,
      listing: { id: row.id, name: row.name, kind: row.kind, lane: row.lane },
      rank: { total: row.rank, badge, badge_label: BADGE_LABEL[badge], rank_delta: RANK_DELTA[badge], trail_strength: strength },
      talk,
      refills,
      allowance: Object.fromEntries(VALUE_EVENTS.map((e) => [e, usageOf(day, e).remaining])),
      partners: { unendorsed_live: unendorsed, endorsed_today: endorsed },
      actions,
      next_step: next,
    };
  },
});
