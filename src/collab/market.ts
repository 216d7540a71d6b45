// The collab market (TOOLS.md "Collaboration"): publish a packaged session's product at a price,
// list the market, buy (free for founding access; otherwise 402 while payments are not open, or the
// x402 path when X402_ENABLED), and install a product you bought or made (its artifacts).
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError, conflict, notFound } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { nextStep } from '../platform/next-step.ts';
import { cleanText } from '../listings/text.ts';
import { loadFunnel } from '../funnel/store.ts';
import { metered, meteredArgs } from '../metering/run.ts';
import { actingListing, meterClaims } from './actor.ts';
import { findProduct, findPurchase, marketProducts, publishProduct, purchaseCounts, recordPurchase, type Product, type PaymentVia } from './market-store.ts';
import { MAX_TITLE } from './package.ts';
import { payForPurchase } from '../metering/x402.ts';
import { DEFAULT_PRICE_USD } from './sessions.ts';
import { accessTokenField, actorListingField, meterOutput, nextStepOutput, productIdField } from './schemas.ts';

export const MAX_PRICE_USD = 1000;

const usd = (cents: number) => Math.round(cents) / 100;

async function requireProduct(ex: Parameters<typeof findProduct>[0], id: string): Promise<Product> {
  const p = await findProduct(ex, id);
  if (!p) throw notFound(`no collab product ${JSON.stringify(id)}`, 'product_id');
  return p;
}

/** Whether a listing made the product (its lead or a contributor): it installs it without buying. */
const madeBy = (p: Product, listingId: string) => p.owner_listing_id === listingId || p.contributors.some((c) => c.listing_id === listingId);

const marketEntry = (p: Product, buys: number) => ({
  product_id: p.product_id,
  title: p.title,
  summary: p.summary,
  price_usd: usd(p.price_cents ?? 0),
  price_cents: p.price_cents ?? 0,
  lead_listing_id: p.owner_listing_id,
  contributors: p.contributors,
  artifacts: p.artifacts.map((a) => a.name),
  purchases: buys,
  published_at: p.published_at,
});

const marketOutput = z.looseObject({ product_id: z.string(), title: z.string(), price_usd: z.number(), price_cents: z.number() });

export const publishCollabProduct = defineOperation({
  name: 'publish_collab_product',
  ownerOnly: true,
  title: 'Publish a collab product',
  description: `Publish the product draft of a session you led to the collab market at a price in USD (0-${MAX_PRICE_USD}, default ${DEFAULT_PRICE_USD}; 0 = free for everyone). Buyers with founding access get it free; others pay through x402 once payments are open. Published once. Metered: collab_publish, 1 free a day.`,
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: z.object({
    product_id: productIdField,
    listing_id: actorListingField,
    price_usd: z.number().min(0, `must be 0-${MAX_PRICE_USD}`).max(MAX_PRICE_USD, `must be 0-${MAX_PRICE_USD}`).optional().describe(`The price in USD (cents precision), 0-${MAX_PRICE_USD}; default ${DEFAULT_PRICE_USD}.`),
    title: z.string().max(200).optional().describe('A new title for the market (default: the draft\'s).'),
    ...meteredArgs,
  }),
  output: z.looseObject({ ok: z.literal(true), product: marketOutput, meter: meterOutput, next_step: nextStepOutput }),
  handler: async (ctx, input) => {
    const actor = await actingListing(ctx, input);
    const first = await requireProduct(ctx.db.kysely, input.product_id);
    if (first.owner_listing_id !== actor.listing.id) throw new AppError(403, 'lead_only', `only the lead of the session (listing ${first.owner_listing_id}) publishes its product`, 'listing_id');
    if (first.state === 'published') throw conflict('already_published', `product ${first.product_id} is published already`, 'product_id');
    const priceCents = Math.round((input.price_usd ?? DEFAULT_PRICE_USD) * 100);
    const title = input.title !== undefined && cleanText(input.title, MAX_TITLE) !== '' ? cleanText(input.title, MAX_TITLE) : first.title;
    const { result, meter } = await metered(ctx, meterClaims(actor, input), 'collab_publish', async (trx) => {
      if (!(await publishProduct(trx, first.product_id, priceCents, title, iso(ctx.clock.now())))) throw conflict('already_published', `product ${first.product_id} is published already`, 'product_id');
      return (await findProduct(trx, first.product_id))!;
    });
    return {
      ok: true as const,
      product: marketEntry(result, 0),
      meter,
      next_step: nextStep('list_collab_market', { listing_id: actor.listing.id }, 'See your product in the market beside the others.'),
    };
  },
});

export const listCollabMarket = defineOperation({
  name: 'list_collab_market',
  title: 'List the collab market',
  description: 'Published collab products, newest first: title, summary, price, contributors, artifacts and purchases. Filter by words (q) or lead listing; with your listing_id, each says whether you bought it or get it free.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    q: z.string().max(200).optional().describe('Words in the title or summary.'),
    lead_listing_id: z.string().min(1).max(64).optional().describe('Only products of this lead listing.'),
    listing_id: z.string().min(1).max(64).optional().describe('Your listing (the buyer): marks what you own and what is free for you.'),
    limit: z.coerce.number().int().min(1, 'must be 1-100').max(100, 'must be 1-100').optional().describe('How many, 1-100 (default 20).'),
  }),
  output: z.looseObject({ ok: z.literal(true), count: z.number(), products: z.array(marketOutput), next_step: nextStepOutput }),
  handler: async (ctx, input) => {
    const ex = ctx.db.kysely;
    const text = input.q === undefined ? undefined : cleanText(input.q, 200);
    const rows = await marketProducts(ex, { text, owner_listing_id: input.lead_listing_id }, input.limit ?? 20);
    const buys = await purchaseCounts(ex, rows.map((p) => p.product_id));
    const buyer = input.listing_id;
    const founding = buyer !== undefined && (await loadFunnel(ex, [buyer])).get(buyer)?.founding_verified === true;
    const products = await Promise.all(
      rows.map(async (p) => ({
        ...marketEntry(p, buys.get(p.product_id) ?? 0),
        ...(buyer !== undefined ? { yours: madeBy(p, buyer), bought: (await findPurchase(ex, p.product_id, buyer)) !== undefined, free_for_you: founding || (p.price_cents ?? 0) === 0 || madeBy(p, buyer) } : {}),
      })),
    );
    const toBuy = buyer !== undefined ? products.find((p) => !('yours' in p && p.yours) && !('bought' in p && p.bought)) : undefined;
    const next = toBuy
      ? nextStep('buy_collab_product', { product_id: toBuy.product_id, listing_id: buyer }, founding ? 'Founding access: you get it free.' : 'Buy it (free with founding access; otherwise paid through x402 once payments are open).')
      : buyer !== undefined
        ? nextStep('complete_collab_path', { listing_id: buyer }, 'Make a product of your own: start a collaboration.')
        : nextStep('collab_access_status', {}, 'See whether you have founding access (free purchases) and your collab allowances; pass your listing_id there.');
    return { ok: true as const, count: products.length, products, next_step: next };
  },
});

export const buyCollabProduct = defineOperation({
  name: 'buy_collab_product',
  ownerOnly: true,
  title: 'Buy a collab product',
  description:
    'Buy a published collab product for your listing, once per listing. Free with founding access or at price 0; otherwise 402 payment_required until payments open, or an x402 payment (payment_proof). Next: install_collab_product.',
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({ product_id: productIdField, listing_id: actorListingField, access_token: accessTokenField, payment_proof: meteredArgs.payment_proof }),
  output: z.looseObject({ ok: z.literal(true), product_id: z.string(), purchase: z.looseObject({ via: z.string(), price_cents: z.number() }), already_bought: z.boolean(), next_step: nextStepOutput }),
  handler: async (ctx, input) => {
    const actor = await actingListing(ctx, input);
    const buyer = actor.listing.id;
    const ex = ctx.db.kysely;
    const p = await requireProduct(ex, input.product_id);
    if (p.state !== 'published') throw conflict('not_published', `product ${p.product_id} is not on the market yet`, 'product_id');
    const install = nextStep('install_collab_product', { product_id: p.product_id, listing_id: buyer }, 'Install it: its artifacts.');
    if (madeBy(p, buyer)) throw conflict('own_product', `listing ${buyer} made product ${p.product_id}: install it without buying (install_collab_product)`, 'product_id');
    const earlier = await findPurchase(ex, p.product_id, buyer);
    if (earlier) return { ok: true as const, product_id: p.product_id, purchase: earlier, already_bought: true, next_step: install };
    const price = p.price_cents ?? 0;
    const founding = (await loadFunnel(ex, [buyer])).get(buyer)?.founding_verified === true || actor.token_scope === 'full';
    let via: PaymentVia;
    let receipt: unknown = null;
    if (price === 0) via = 'free';
    else if (founding) via = 'founding';
    else if (!ctx.config.x402.enabled) {
      throw new AppError(
        402,
        'payment_required',
        `product ${p.product_id} costs $${usd(price).toFixed(2)} and payments are not open yet: founding listings (founding-verified, or a full access token) buy it free; everyone else can buy once payments open`,
        'product_id',
        { price_cents: price, founding_access: false, payments_open: false },
      );
    } else {
      via = 'x402';
      receipt = await payForPurchase(ctx, actor.subject, { price_cents: price, resource: `collab_product:${p.product_id}`, description: `collab product ${p.product_id}` }, input.payment_proof ?? ctx.payment);
    }
    const paid = via === 'x402' ? price : 0;
    const { purchase, created } = await inTransaction(ex, (trx) => recordPurchase(trx, { product_id: p.product_id, buyer_listing_id: buyer, price_cents: paid, via, receipt, created_at: iso(ctx.clock.now()) }));
    return { ok: true as const, product_id: p.product_id, title: p.title, purchase, already_bought: !created, list_price_cents: price, next_step: install };
  },
});

export const installCollabProduct = defineOperation({
  name: 'install_collab_product',
  ownerOnly: true,
  title: 'Install a collab product',
  description: 'The artifacts of a collab product you bought or made (README.md with every step\'s result quoted as data, collab.json with the whole package). Others get 403 not_bought and the call to buy it.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({ product_id: productIdField, listing_id: actorListingField, access_token: accessTokenField }),
  output: z.looseObject({ ok: z.literal(true), product_id: z.string(), artifacts: z.array(z.looseObject({ name: z.string(), media_type: z.string(), content: z.string() })), next_step: nextStepOutput }),
  handler: async (ctx, input) => {
    const actor = await actingListing(ctx, input);
    const me = actor.listing.id;
    const ex = ctx.db.kysely;
    const p = await requireProduct(ex, input.product_id);
    const made = madeBy(p, me);
    const purchase = made ? undefined : await findPurchase(ex, p.product_id, me);
    if (!made && !purchase) {
      throw new AppError(403, 'not_bought', `listing ${me} has not bought product ${p.product_id}${p.state === 'published' ? ': buy it first (buy_collab_product)' : ' (it is not on the market yet)'}`, 'product_id');
    }
    return {
      ok: true as const,
      product_id: p.product_id,
      title: p.title,
      state: p.state,
      access: made ? 'contributor' : `bought (${purchase!.via})`,
      artifacts: p.artifacts,
      contributors: p.contributors,
      next_step: nextStep('list_collab_market', { listing_id: me }, 'More products from collaborations.'),
    };
  },
});
