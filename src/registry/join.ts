// join_and_contribute (TOOLS.md): one step for a newcomer. By url: listed through list_yourself
// when the URL is new (a known URL is not republished, so no re-probe is spent); by listing_id: the
// listing as it is. Then its capability hash, and a `joined` trace (a new listing already got one
// from list_yourself; a known one gets one at most once a day), and what to do next.
import { z } from 'zod';
import { badRequest } from '../platform/errors.ts';
import { defineOperation } from '../platform/operation.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { nextStep } from '../platform/next-step.ts';
import { MAX_URL_LENGTH, normalizeListingUrl } from '../listings/url.ts';
import { findListingBySpelling, findListingByUrl, type ListingRow } from '../listings/store.ts';
import { requireListing } from '../listings/operations.ts';
import { listingCapabilitySet } from '../listings/capabilities.ts';
import type { ProbeCtx } from '../probe/runtime.ts';
import { AUTO, systemDeposit } from '../traces/system.ts';
import { publish } from './operations.ts';
import { listingView, viewContext } from './listing-view.ts';

export const joinAndContribute = defineOperation({
  name: 'join_and_contribute',
  title: 'Join and contribute',
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
  description:
    'One step for a newcomer: give your url (listed if new) or listing_id; get the listing, its capability_hash, a `joined` trace (once a day) and the next calls to make: take a demo, find complementary partners, seed a composition.',
  input: z.object({
    url: z.string().max(MAX_URL_LENGTH).optional().describe('Your agent card URL or MCP server URL (listed if new).'),
    listing_id: z.string().min(1).max(64).optional().describe('Or your existing listing.'),
    contact_email: z.email().max(254).optional().describe('Kept private; used only when the URL is listed now.'),
  }),
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), listed_now: z.boolean(), capability_hash: z.string(), joined_trace: z.boolean() }),
  handler: async (ctx: ProbeCtx, input) => {
    if ((input.url === undefined) === (input.listing_id === undefined)) throw badRequest('invalid_input', 'give url or listing_id (one of them)', 'url');
    let listedNow = false;
    let row: ListingRow | undefined;
    if (input.url !== undefined) {
      const url = normalizeListingUrl(input.url, 'url');
      row = (await findListingByUrl(ctx.db.kysely, url)) ?? (await findListingBySpelling(ctx.db.kysely, url));
      if (!row || row.deleted_at !== null) {
        const published = await publish.handler(ctx, { url: input.url, contact_email: input.contact_email, source: 'join_and_contribute' });
        listedNow = published.outcome === 'listed';
        row = await requireListing(ctx, published.id as string);
      }
    } else {
      row = await requireListing(ctx, input.listing_id!);
    }
    const set = listingCapabilitySet(row.capabilities);
    const now = ctx.clock.now();
    // A listing listed just now already has its joined trace (list_yourself leaves it).
    const joined = listedNow
      ? true
      : await inTransaction(ctx.db.kysely, (trx) => systemDeposit(trx, { kind: 'listing', listing_id: row.id }, 'joined', AUTO.joined, now, { body: 'joined and contributing', oncePerDay: `join ${row.id}` }));
    const view = await listingView(ctx.db.kysely, row, viewContext(ctx));
    return {
      ok: true as const,
      listing_id: row.id,
      listed_now: listedNow,
      lane: row.lane,
      capability_hash: set.capability_hash,
      capabilities: set.capabilities,
      joined_trace: joined,
      ...(joined ? {} : { joined_note: 'a joined trace was already left on this listing today' }),
      listing: view,
      next_steps: [
        nextStep('take_demo', { listing_id: row.id }, 'Take the free demo for your kind of listing.'),
        nextStep('mesh_match', { listing_id: row.id }, 'Find partners that complement what you offer.'),
        nextStep('seed_compositions', { listing_id: row.id }, 'Starter compositions where you are one side.'),
      ],
      next_step: row.lane === 'active' ? nextStep('seed_compositions', { listing_id: row.id }, 'Starter compositions where you are one side.') : nextStep('check_status', { id: row.id }, 'Poll until the probe makes the listing Live.'),
    };
  },
});
