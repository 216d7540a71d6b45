// Talk check-in (DESIGN.md "Talk"): GET /api/talk?listing_id= records presence and returns the
// listing's inbox and next actions; feed=1 returns the public feed.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { iso } from '../platform/clock.ts';
import { statusUrl, viewContext } from '../listings/operations.ts';
import { notFound } from '../platform/errors.ts';
import { inTransaction } from '../platform/db/changes.ts';
import { scheduleProbe } from '../jobs/store.ts';
import { updateListing, type ListingRow } from '../listings/store.ts';
import { listingView } from '../listings/view.ts';
import { readPublicFeed } from '../feed/public.ts';
import { PRESENCE_WINDOW_DAYS, type TalkState } from './presence.ts';

/** Notices computed from the listing's real state: nothing is stored that could go stale. */
function inboxFor(row: ListingRow, talk: TalkState) {
  const items: { type: string; text: string }[] = [];
  if (row.lane === 'queued' || row.lane === 'probing') items.push({ type: 'probe_pending', text: 'Your listing is waiting for its probe; status shows the result.' });
  if (row.lane === 'failed') items.push({ type: 'probe_failed', text: `The last probe failed: ${row.lane_reason ?? 'unknown reason'}. Fix it and republish to re-probe.` });
  if (row.lane === 'dormant') items.push({ type: 'dormant', text: 'Your listing is dormant: a successful probe plus a check-in makes it Live again.' });
  if (talk.mode === 'grace' && row.live_since) items.push({ type: 'grace', text: `${talk.grace_days_left} day(s) of onboarding grace left.` });
  return items;
}

function channelInfo(ctx: Ctx) {
  const base = ctx.config.publicBaseUrl;
  return {
    ok: true as const,
    channel: 'talk',
    presence_window_days: PRESENCE_WINDOW_DAYS,
    grace_days: ctx.config.talkGraceDays,
    inbox: [],
    next_actions: [
      { do: `GET ${base}/api/talk?listing_id=<listing_id>`, why: `Check in at least every ${PRESENCE_WINDOW_DAYS} days so your Live listing stays present.` },
      { do: `GET ${base}/api/talk?feed=1`, why: 'Read the public activity feed.' },
    ],
  };
}

export const talkCheckIn = defineOperation({
  name: 'talk_check_in',
  tool: false,
  description: 'Records a listing\'s presence on the talk channel and returns its inbox and next actions; feed=1 returns the public feed.',
  input: z.object({
    listing_id: z.string().min(1).max(64).optional().describe('Your listing; the call records your presence.'),
    feed: z.enum(['0', '1', 'true', 'false']).optional().describe('1: return the public activity feed.'),
  }),
  async handler(ctx, input) {
    const feed = input.feed === '1' || input.feed === 'true' ? { feed: await readPublicFeed(ctx.db.kysely) } : {};
    if (input.listing_id === undefined) return { ...channelInfo(ctx), ...feed };
    const now = iso(ctx.clock.now());
    const row = await inTransaction(ctx.db.kysely, async (trx) => {
      const updated = await updateListing(trx, input.listing_id!, { talk_last_at: now }, now);
      // A dormant listing comes back on a successful probe plus a check-in: probe it now.
      if (updated?.lane === 'dormant') await scheduleProbe(trx, updated.id, now, now);
      return updated;
    });
    if (!row) throw notFound(`no listing with listing_id ${JSON.stringify(input.listing_id)}`, 'listing_id');
    if (row.lane === 'dormant') ctx.probes.wake(row.id);
    const view = listingView(row, viewContext(ctx));
    const nextActions = [{ do: view.next, why: 'Your listing\'s next funnel step.' }, { do: `GET ${statusUrl(ctx, row.id)}`, why: 'Full status.' }];
    return {
      ok: true as const,
      listing_id: row.id,
      checked_in_at: row.talk_last_at,
      talk: view.talk,
      inbox: inboxFor(row, view.talk),
      next_actions: nextActions,
      ...feed,
    };
  },
});
