// The collab market's SQL: products packaged from closed sessions (draft, then published with a
// price) and purchases (one per product and buyer listing, recorded once however often it is
// asked, even by racing calls: the primary key decides).
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { collabTables as q } from './tables.ts';

export interface Artifact {
  name: string;
  media_type: string;
  content: string;
}

export interface Contributor {
  listing_id: string;
  role: string;
  steps: number[];
}

export interface Product {
  product_id: string;
  session_id: string;
  workflow_id: string;
  owner_listing_id: string;
  title: string;
  summary: string;
  contributors: Contributor[];
  artifacts: Artifact[];
  state: 'draft' | 'published';
  price_cents: number | null;
  created_at: string;
  published_at: string | null;
}

type ProductRow = {
  id: string;
  session_id: string;
  workflow_id: string;
  owner_listing_id: string;
  title: string;
  summary: string;
  contributors: string;
  artifacts: string;
  state: 'draft' | 'published';
  price_cents: number | null;
  created_at: string;
  published_at: string | null;
};

const toProduct = (r: ProductRow): Product => ({
  product_id: r.id,
  session_id: r.session_id,
  workflow_id: r.workflow_id,
  owner_listing_id: r.owner_listing_id,
  title: r.title,
  summary: r.summary,
  contributors: JSON.parse(r.contributors) as Contributor[],
  artifacts: JSON.parse(r.artifacts) as Artifact[],
  state: r.state,
  price_cents: r.price_cents === null ? null : Number(r.price_cents),
  created_at: r.created_at,
  published_at: r.published_at,
});

export async function insertProduct(ex: Executor, p: Product): Promise<void> {
  await q(ex)
    .insertInto('collab_products')
    .values({
      id: p.product_id,
      session_id: p.session_id,
      workflow_id: p.workflow_id,
      owner_listing_id: p.owner_listing_id,
      title: p.title,
      summary: p.summary,
      contributors: JSON.stringify(p.contributors),
      artifacts: JSON.stringify(p.artifacts),
      state: p.state,
      price_cents: p.price_cents,
      created_at: p.created_at,
      published_at: p.published_at,
    })
    .execute();
}

export async function findProduct(ex: Executor, id: string): Promise<Product | undefined> {
  const row = await q(ex).selectFrom('collab_products').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toProduct(row);
}

/** Publishes a draft at a price; false when it was published already. */
export async function publishProduct(ex: Executor, id: string, priceCents: number, title: string, now: string): Promise<boolean> {
  const res = await q(ex).updateTable('collab_products').set({ state: 'published', price_cents: priceCents, title, published_at: now }).where('id', '=', id).where('state', '=', 'draft').executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Published products, newest first; `text` matches title or summary (case-insensitive). */
export async function marketProducts(ex: Executor, by: { text?: string; owner_listing_id?: string }, limit: number): Promise<Product[]> {
  let sel = q(ex).selectFrom('collab_products').selectAll().where('state', '=', 'published');
  if (by.owner_listing_id !== undefined) sel = sel.where('owner_listing_id', '=', by.owner_listing_id);
  if (by.text !== undefined && by.text !== '') {
    const like = `%${by.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    sel = sel.where(sql<boolean>`(lower(title) like ${like} escape '\\' or lower(summary) like ${like} escape '\\')`);
  }
  const rows = await sel.orderBy('published_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map(toProduct);
}

/** A listing's own products (drafts and published), newest first. */
export async function productsOfOwner(ex: Executor, listingId: string, limit: number): Promise<Product[]> {
  const rows = await q(ex).selectFrom('collab_products').selectAll().where('owner_listing_id', '=', listingId).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map(toProduct);
}

export type PaymentVia = 'founding' | 'free' | 'x402';

export interface Purchase {
  product_id: string;
  buyer_listing_id: string;
  price_cents: number;
  via: PaymentVia;
  receipt: unknown;
  created_at: string;
}

/** Records a purchase once; returns the stored one (the earlier one when it existed). */
export async function recordPurchase(ex: Executor, p: Purchase): Promise<{ purchase: Purchase; created: boolean }> {
  const res = await q(ex)
    .insertInto('collab_purchases')
    .values({ ...p, receipt: p.receipt === null || p.receipt === undefined ? null : JSON.stringify(p.receipt) })
    .onConflict((oc) => oc.columns(['product_id', 'buyer_listing_id']).doNothing())
    .executeTakeFirst();
  const created = Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  return { purchase: created ? p : (await findPurchase(ex, p.product_id, p.buyer_listing_id))!, created };
}

export async function findPurchase(ex: Executor, productId: string, buyer: string): Promise<Purchase | undefined> {
  const row = await q(ex).selectFrom('collab_purchases').selectAll().where('product_id', '=', productId).where('buyer_listing_id', '=', buyer).executeTakeFirst();
  return row && { ...row, price_cents: Number(row.price_cents), via: row.via as Purchase['via'], receipt: row.receipt === null ? null : JSON.parse(row.receipt) };
}

/** Purchases per product (market lists). */
export async function purchaseCounts(ex: Executor, productIds: string[]): Promise<Map<string, number>> {
  if (!productIds.length) return new Map();
  const rows = await q(ex).selectFrom('collab_purchases').select(['product_id', (eb) => eb.fn.countAll<number>().as('n')]).where('product_id', 'in', productIds).groupBy('product_id').execute();
  return new Map(rows.map((r) => [r.product_id, Number(r.n)]));
}

/** A listing's purchases, counted (collab_access_status). */
export async function countPurchasesOf(ex: Executor, listingId: string): Promise<number> {
  const row = await q(ex).selectFrom('collab_purchases').select((eb) => eb.fn.countAll<number>().as('n')).where('buyer_listing_id', '=', listingId).executeTakeFirstOrThrow();
  return Number(row.n);
}
