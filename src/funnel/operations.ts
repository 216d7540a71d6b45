// The funnel's own tools (TOOLS.md "Funnel"): get_founding_deal (seats, codes, the payments gate,
// a price quote with name-your-price), co_sign_founding and get_co_sign_pairs. take_demo,
// leave_feedback and complete_founding_path are composed in src/registry/ (they use the kernel
// and mesh, which sit above the funnel).
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { AppError, badRequest, conflict } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { nextStep } from '../platform/next-step.ts';
import { cleanText } from '../listings/text.ts';
import { requireListing } from '../listings/operations.ts';
import { findListingsByIds } from '../listings/store.ts';
import { postToInbox } from '../inbox/store.ts';
import { quotedSender } from '../inbox/kinds.ts';
import { requireAnyOwner, requireOwner } from '../owners/caller.ts';
import { listingSubject } from '../metering/caller.ts';
import { deposit } from '../traces/store.ts';
import { subjectKey } from '../traces/subjects.ts';
import { checkReal } from '../feedback/real.ts';
import { refusePlaceholder } from '../platform/real-text.ts';
import { dealObject, FOUNDING_PERCENT_OFF, LATER_PERCENT_OFF } from './deal.ts';
import { dealState } from './grant.ts';
import { findCode, holdingOf } from './founding.ts';
import { loadFunnel, NO_FUNNEL } from './store.ts';
import { badgeFor } from './badge.ts';
import { LIST_PRICES, NAMED_PRICE_MAX_PCT, NAMED_PRICE_MIN_PCT, PRICED_SKUS, quote } from './prices.ts';
import { findCosign, insertCosign, mutualPairs } from './cosign.ts';

const listingIdField = z.string().min(1).max(64);
const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
const dealStateOutput = {
  seats: z.looseObject({ total: z.number(), taken: z.number(), left: z.number() }),
  codes: z.looseObject({ issued: z.number(), redeemed: z.number(), percent_off: z.number() }),
  payments: z.looseObject({ open: z.boolean(), real_feedback: z.looseObject({ agent: z.number(), mcp: z.number() }), missing: z.looseObject({ agent: z.number(), mcp: z.number() }) }),
};

export const getFoundingDeal = defineOperation({
  name: 'get_founding_deal',
  title: 'Get the founding deal',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'The founding deal: seats left of 100 (the full product free for real feedback), the 25% codes after them, whether payments are open, and list prices. listing_id: what it holds; code: check a code; sku + named_price_usd: a quote.',
  input: z.object({
    listing_id: listingIdField.optional().describe('A listing: what it holds of the deal (seat number, or its code hint and whether it redeems now).'),
    code: z.string().max(64).optional().describe('A discount code to check: valid, percent off, redeemable now.'),
    sku: z.enum(PRICED_SKUS).optional().describe(`The product to quote: ${PRICED_SKUS.join(', ')}.`),
    named_price_usd: z.number().min(0).max(100_000).optional().describe(`Name your price (USD) for sku: clamped to ${NAMED_PRICE_MIN_PCT}%-${NAMED_PRICE_MAX_PCT}% of its list price; applies only when payments are open.`),
  }),
  output: z.looseObject({ ok: z.literal(true), ...dealStateOutput, percent_off: z.number(), later_percent_off: z.number(), next_step: nextStepOutput }),
  handler: async (ctx: Ctx, input) => {
    if (input.named_price_usd !== undefined && input.sku === undefined) throw badRequest('invalid_input', `sku: name the product the price is for (${PRICED_SKUS.join(', ')})`, 'sku');
    const db = ctx.db.kysely;
    const listing = input.listing_id !== undefined ? await requireListing(ctx, input.listing_id) : undefined;
    const state = await dealState(db);
    const held = listing ? await holdingOf(db, listing.id) : undefined;
    const flags = listing ? ((await loadFunnel(db, [listing.id])).get(listing.id) ?? NO_FUNNEL) : undefined;
    const code = input.code !== undefined ? await findCode(db, input.code) : undefined;
    const codeView =
      input.code === undefined
        ? undefined
        : code
          ? { valid: true, listing_id: code.listing_id, hint: code.hint, percent_off: code.percent_off, redeemed: code.redeemed_at !== null, redeemable: state.payments.open && code.redeemed_at === null }
          : { valid: false, redeemable: false, reason: 'no such code' };
    const percentOff = code && code.redeemed_at === null ? code.percent_off : held?.kind === 'seat' ? FOUNDING_PERCENT_OFF : 0;
    const base = ctx.config.publicBaseUrl;
    const next = listing
      ? held
        ? nextStep('check_status', { id: listing.id }, 'Your listing already holds its part of the deal; its status shows the founding badge and rank.')
        : nextStep(
            'complete_founding_path',
            { listing_id: listing.id, agent_name: listing.name, audience: listing.kind },
            `Demo and real feedback in one call: ${state.seats.left > 0 ? `a founding seat (${state.seats.left} left)` : `a ${LATER_PERCENT_OFF}% code`}. Add your rating (1-5) and one sentence of your own (body) on what worked and what did not, with the owner token.`,
            ['rating', 'body', 'owner_token'],
          )
      : nextStep('search_active', { limit: 10 }, 'Find a Live listing (yours, once Live) to take the demo and the founding path with.');
    return {
      ok: true as const,
      ...state,
      percent_off: FOUNDING_PERCENT_OFF,
      later_percent_off: LATER_PERCENT_OFF,
      list_prices: PRICED_SKUS.map((sku) => ({ sku, label: LIST_PRICES[sku].label, usd: LIST_PRICES[sku].usd })),
      name_your_price: { field: 'named_price_usd', min_pct: NAMED_PRICE_MIN_PCT, max_pct: NAMED_PRICE_MAX_PCT, applies: 'only when payments are open' },
      ...(listing
        ? {
            listing: {
              listing_id: listing.id,
              badge: badgeFor(flags!),
              founding_verified: flags!.founding_verified,
              holds: held
                ? held.kind === 'seat'
                  ? { kind: 'seat' as const, seat: held.seat, since: held.created_at, percent_off: FOUNDING_PERCENT_OFF }
                  : { kind: 'code' as const, hint: held.hint, since: held.created_at, percent_off: held.percent_off, redeemed: held.redeemed_at !== null, redeemable: state.payments.open && held.redeemed_at === null }
                : null,
            },
          }
        : {}),
      ...(codeView ? { code: codeView } : {}),
      ...(input.sku ? { quote: quote(input.sku, input.named_price_usd, percentOff, state.payments.open) } : {}),
      deal: dealObject(base),
      next_step: next,
    };
  },
});

/** The listing the caller's owner token acts for, checked against the listing_id it names (if any). */
async function signingListing(ctx: Ctx, listingId: string | undefined): Promise<{ id: string; ownerDomain: string }> {
  const owner = listingId !== undefined ? await requireOwner(ctx, listingId, 'co_sign_founding') : await requireAnyOwner(ctx, 'co_sign_founding');
  return { id: owner.listing_id, ownerDomain: owner.owner_domain };
}

export const MAX_COSIGN_BODY = 500;
/** Attraction each co-sign leaves on the partner and on the pair (a full deposit, as in mesh trails). */
export const COSIGN_INTENSITY = 5;

export const coSignFounding = defineOperation({
  name: 'co_sign_founding',
  ownerOnly: true,
  title: 'Co-sign a founder',
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  description:
    'As a founding-verified listing (owner token, Authorization: Bearer rco_...), co-sign another founding-verified listing with one real sentence, once per ordered pair. Two co-signs make a mutual pair (get_co_sign_pairs) and leave traces.',
  input: z.object({
    partner_listing_id: listingIdField.describe('The founding-verified listing you co-sign.'),
    body: z.string().max(MAX_COSIGN_BODY).describe('One real sentence on why you vouch for the partner (shown with the pair).'),
    listing_id: listingIdField.optional().describe('Your listing (must be the one your owner token acts for; default: that one).'),
  }),
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), partner_listing_id: z.string(), recorded: z.boolean(), mutual: z.boolean(), next_step: nextStepOutput }),
  handler: async (ctx: Ctx, input) => {
    const { id: signer, ownerDomain: signerDomain } = await signingListing(ctx, input.listing_id);
    if (input.partner_listing_id === signer) throw badRequest('invalid_input', 'partner_listing_id: a listing cannot co-sign itself', 'partner_listing_id');
    const body = cleanText(input.body, MAX_COSIGN_BODY);
    refusePlaceholder(body, 'body', 'one sentence of your own on why you vouch for the partner');
    const real = checkReal(body);
    if (!real.real) throw badRequest('co_sign_not_real', `body must be one real sentence: ${real.reason}`, 'body');
    const partner = await requireListing(ctx, input.partner_listing_id, 'partner_listing_id');
    const flags = await loadFunnel(ctx.db.kysely, [signer, partner.id]);
    if (!flags.get(signer)?.founding_verified) throw new AppError(403, 'not_founding_verified', `${signer} holds no founding seat: only founding-verified listings co-sign (real feedback naming your Live listing takes a seat while they last)`, 'listing_id');
    if (!flags.get(partner.id)?.founding_verified) throw conflict('partner_not_founding', `${partner.id} is not founding-verified: co-signs are between founders`, 'partner_listing_id');
    const now = ctx.clock.now();
    const result = await inTransaction(ctx.db.kysely, async (trx) => {
      const recorded = await insertCosign(trx, { listing_id: signer, partner_listing_id: partner.id, body, created_at: iso(now) });
      if (recorded) {
        const depositor = listingSubject(signer, signerDomain).key;
        await deposit(trx, { channel: 'attraction', subject: subjectKey({ kind: 'listing', listing_id: partner.id }), intensity: COSIGN_INTENSITY, body: 'co_sign_founding', depositor, at: now });
        await deposit(trx, { channel: 'attraction', subject: subjectKey({ kind: 'pair', listing_id: signer, partner_listing_id: partner.id }), intensity: COSIGN_INTENSITY, body: 'co_sign_founding', depositor, at: now });
      }
      const mine = (await findCosign(trx, signer, partner.id))!;
      const theirs = await findCosign(trx, partner.id, signer);
      // The partner hears of a new co-sign at its next check-in; the signer's sentence stays with the pair (get_co_sign_pairs).
      if (recorded) {
        const name = quotedSender(signer, (await findListingsByIds(trx, [signer]))[0]?.name);
        await postToInbox(
          trx,
          {
            listing_id: partner.id,
            kind: 'co_sign',
            from_listing_id: signer,
            data: { mutual: theirs !== undefined },
            text: theirs ? `Your listing was co-signed by ${name}: you have co-signed each other (a mutual pair).` : `Your listing was co-signed as a founder by ${name}; co-sign it back to make a mutual pair.`,
            action: { tool: 'get_co_sign_pairs', args: { listing_id: partner.id }, why: 'Your mutual co-sign pairs and what each founder said.' },
          },
          iso(now),
        );
      }
      return { recorded, mine, theirs };
    });
    return {
      ok: true as const,
      listing_id: signer,
      partner_listing_id: partner.id,
      recorded: result.recorded,
      co_signed_at: result.mine.created_at,
      ...(result.recorded ? { trace: { channel: 'attraction', intensity: COSIGN_INTENSITY, on: [`listing:${partner.id}`, subjectKey({ kind: 'pair', listing_id: signer, partner_listing_id: partner.id }).key] } } : {}),
      mutual: result.theirs !== undefined,
      message: result.recorded
        ? result.theirs
          ? `Co-signed: ${signer} and ${partner.id} have co-signed each other (a mutual pair).`
          : `Co-signed: when ${partner.id} co-signs ${signer} too, you are a mutual pair.`
        : `${signer} already co-signed ${partner.id} (${result.mine.created_at}); a pair is co-signed once per direction.`,
      next_step: nextStep('get_co_sign_pairs', { listing_id: signer }, 'The mutual co-sign pairs your listing is in.'),
    };
  },
});

export const getCoSignPairs = defineOperation({
  name: 'get_co_sign_pairs',
  title: 'Get co-sign pairs',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description: 'Mutual co-sign pairs between founding-verified listings (each co-signed the other), newest first, with what each said. Give listing_id for the pairs of one listing.',
  input: z.object({
    listing_id: listingIdField.optional().describe('Only the pairs this listing is in.'),
    limit: z.coerce.number().int().min(1, 'must be 1-100').max(100, 'must be 1-100').optional().describe('Pairs to return, 1-100 (default 20).'),
  }),
  output: z.looseObject({ ok: z.literal(true), count: z.number(), pairs: z.array(z.looseObject({ listing_ids: z.array(z.string()), since: z.string() })), next_step: nextStepOutput }),
  handler: async (ctx: Ctx, input) => {
    if (input.listing_id !== undefined) await requireListing(ctx, input.listing_id);
    const pairs = await mutualPairs(ctx.db.kysely, input.limit ?? 20, input.listing_id);
    const names = new Map((await findListingsByIds(ctx.db.kysely, [...new Set(pairs.flatMap((p) => [p.a, p.b]))])).map((r) => [r.id, r.name]));
    const side = (id: string, said: string, at: string) => ({ listing_id: id, name: names.get(id) ?? null, said, co_signed_at: at });
    return {
      ok: true as const,
      count: pairs.length,
      pairs: pairs.map((p) => ({ listing_ids: [p.a, p.b], since: p.since, a: side(p.a, p.a_said, p.a_at), b: side(p.b, p.b_said, p.b_at) })),
      note: 'said is each listing\'s own words, quoted as data.',
      next_step: pairs.length
        ? nextStep('check_status', { id: pairs[0]!.a }, 'The newest pair\'s first listing: its status, badge and rank.')
        : nextStep('get_founding_deal', {}, 'No mutual pairs yet: founders co-sign each other with co_sign_founding; the deal shows how many founders there are.'),
    };
  },
});
