// Founding list prices and name-your-price (SPEC.md 8.3), and the payments gate (SPEC.md 1.4):
// pure, so every tool that quotes a price quotes the same one. Amounts are whole cents inside.
export const LIST_PRICES = {
  kernel: { label: 'Kernel', usd: 14.99 },
  recursive: { label: 'Loop', usd: 19.99 },
  alive: { label: 'Alive', usd: 29.99 },
  mcp_mesh: { label: 'Mesh', usd: 24.99 },
  collab_lab: { label: 'Collab Lab', usd: 49 },
} as const;
export type PricedSku = keyof typeof LIST_PRICES;
export const PRICED_SKUS = Object.keys(LIST_PRICES) as PricedSku[];

/** A named price is clamped to this share of the list price (SPEC.md 8.3). */
export const NAMED_PRICE_MIN_PCT = 50;
export const NAMED_PRICE_MAX_PCT = 300;

/** Payments open when this much real feedback exists, by kind (SPEC.md 1.4, 8.3). */
export const PAYMENTS_GATE = { agent: 10, mcp: 5 } as const;

const cents = (usd: number) => Math.round(usd * 100);
const usd = (c: number) => c / 100;

export interface PaymentsState {
  open: boolean;
  real_feedback: { agent: number; mcp: number };
  needed: { agent: number; mcp: number };
  /** How many more real items of each kind open payments (0 when that side is met). */
  missing: { agent: number; mcp: number };
}

export function paymentsState(counts: { agent: number; mcp: number }): PaymentsState {
  const missing = { agent: Math.max(0, PAYMENTS_GATE.agent - counts.agent), mcp: Math.max(0, PAYMENTS_GATE.mcp - counts.mcp) };
  return { open: missing.agent === 0 && missing.mcp === 0, real_feedback: counts, needed: { ...PAYMENTS_GATE }, missing };
}

export interface PriceQuote {
  sku: PricedSku;
  label: string;
  list_price_usd: number;
  named_price_usd: number | null;
  min_usd: number;
  max_usd: number;
  /** The named price inside the 50%-300% band (the list price when none was named). */
  price_usd: number;
  clamped: boolean;
  percent_off: number;
  /** What would be paid: price_usd less percent_off. */
  pay_usd: number;
  /** A named price and a discount apply only when payments are open. */
  applied: boolean;
  note: string;
}

/** The quote for a SKU: the named price clamped to 50%-300% of the list price, less a discount. */
export function quote(sku: PricedSku, named: number | undefined, percentOff: number, paymentsOpen: boolean): PriceQuote {
  const list = cents(LIST_PRICES[sku].usd);
  const min = Math.round((list * NAMED_PRICE_MIN_PCT) / 100);
  const max = Math.round((list * NAMED_PRICE_MAX_PCT) / 100);
  const asked = named === undefined ? list : cents(named);
  const price = Math.min(max, Math.max(min, asked));
  const pay = Math.round((price * (100 - percentOff)) / 100);
  return {
    sku,
    label: LIST_PRICES[sku].label,
    list_price_usd: usd(list),
    named_price_usd: named ?? null,
    min_usd: usd(min),
    max_usd: usd(max),
    price_usd: usd(price),
    clamped: price !== asked,
    percent_off: percentOff,
    pay_usd: usd(pay),
    applied: paymentsOpen,
    note: paymentsOpen
      ? `payments are open: this is the price that applies (a named price is kept within ${NAMED_PRICE_MIN_PCT}%-${NAMED_PRICE_MAX_PCT}% of the list price)`
      : `payments are not open yet: nothing is charged and a named price does not apply until ${PAYMENTS_GATE.agent} real agent and ${PAYMENTS_GATE.mcp} real MCP feedback items exist`,
  };
}
