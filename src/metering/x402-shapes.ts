// The x402 wire shapes (coinbase/x402 specs: x402 v1 and v2, HTTP and MCP transports), kept pure so
// the paid path (x402.ts) and both doors build and read the same objects.
// - v1: a 402 body `{x402Version:1, error, accepts:[PaymentRequirements]}`, the payment in `X-PAYMENT`
//   (base64 JSON), the receipt in `X-PAYMENT-RESPONSE`; networks by name (`base-sepolia`).
// - v2: the same offer base64-encoded in the `PAYMENT-REQUIRED` header with `amount` and a CAIP-2
//   network (`eip155:84532`), the payment in `PAYMENT-SIGNATURE`, the receipt in `PAYMENT-RESPONSE`;
//   over MCP the offer travels as `{"x402/error": {code: 402, message, data}}` and the payment in
//   `_meta["x402/payment"]`.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Config } from '../config.ts';
import { AppError } from '../platform/errors.ts';
import type { MeteredEvent } from './events.ts';

export interface RequirementsV1 {
  scheme: 'exact';
  network: string;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  outputSchema: null;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  extra?: { name?: string; version: string };
}

export interface RequirementsV2 {
  scheme: 'exact';
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra?: { name?: string; version: string };
}

export interface PaymentRequiredV1 {
  x402Version: 1;
  error: string;
  accepts: RequirementsV1[];
}

export interface PaymentRequiredV2 {
  x402Version: 2;
  error: string;
  resource: { url: string; description: string; mimeType: string };
  accepts: RequirementsV2[];
}

/** What this service asks for one call of an event, in both versions. */
export interface Offer {
  event_id: string;
  price_cents: number;
  v1: RequirementsV1;
  v2: RequirementsV2;
  resource: PaymentRequiredV2['resource'];
}

/** x402 v1 network names and their CAIP-2 ids (x402 v2). */
const CAIP2: Record<string, string> = {
  base: 'eip155:8453',
  'base-sepolia': 'eip155:84532',
  avalanche: 'eip155:43114',
  'avalanche-fuji': 'eip155:43113',
  polygon: 'eip155:137',
  'polygon-amoy': 'eip155:80002',
};
const NAMES = new Map(Object.entries(CAIP2).map(([name, id]) => [id, name]));

export const caip2Network = (network: string): string => (network.includes(':') ? network : (CAIP2[network] ?? network));
export const v1Network = (network: string): string => (network.includes(':') ? (NAMES.get(network) ?? network) : network);

/** A price in cents as atomic units of a token with `decimals` decimals (USDC: 25 cents -> "250000"). */
export const atomicAmount = (cents: number, decimals: number): string => (BigInt(cents) * 10n ** BigInt(decimals - 2)).toString();

/** The resource a paid event is: the tool endpoint, with the event named (x402 wants a URL). */
export const resourceUrl = (base: string, eventId: string): string => `${base}/api/mcp?event=${encodeURIComponent(eventId)}`;

/** The offer for one call of `event` under this configuration (x402 enabled: payTo and asset are set). */
export function offerFor(config: Pick<Config, 'publicBaseUrl' | 'x402'>, event: Pick<MeteredEvent, 'price_cents' | 'description'> & { event_id: string }): Offer {
  const x = config.x402;
  const amount = atomicAmount(event.price_cents, x.assetDecimals);
  const extra = { ...(x.assetName ? { name: x.assetName } : {}), version: x.assetVersion };
  const resource = { url: resourceUrl(config.publicBaseUrl, event.event_id), description: event.description, mimeType: 'application/json' };
  const common = { scheme: 'exact' as const, payTo: x.payTo ?? '', maxTimeoutSeconds: x.maxTimeoutS, asset: x.asset ?? '', extra };
  return {
    event_id: event.event_id,
    price_cents: event.price_cents,
    resource,
    v1: { ...common, network: v1Network(x.network), maxAmountRequired: amount, resource: resource.url, description: resource.description, mimeType: resource.mimeType, outputSchema: null },
    v2: { ...common, network: caip2Network(x.network), amount },
  };
}

export const paymentRequiredV1 = (offer: Offer, error: string): PaymentRequiredV1 => ({ x402Version: 1, error, accepts: [offer.v1] });
export const paymentRequiredV2 = (offer: Offer, error: string): PaymentRequiredV2 => ({ x402Version: 2, error, resource: offer.resource, accepts: [offer.v2] });

export const encodeJson = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

function decodeJson(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('{')) return JSON.parse(t);
  // Standard or URL-safe base64, with or without padding.
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) throw new Error('not base64');
  return JSON.parse(Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const sameAddress = (a: unknown, b: string): boolean => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

export type DecodedPayment =
  | { ok: true; version: 1 | 2; payment: Record<string, unknown>; requirements: RequirementsV1 | RequirementsV2 }
  | { ok: false; reason: string; message: string };

/**
 * Reads a payment (base64 JSON as in X-PAYMENT / PAYMENT-SIGNATURE, or the JSON itself) and checks
 * that it answers this offer before the facilitator is asked: version, scheme, network and, for
 * v2, the terms it says it accepted. Reasons are x402's error codes.
 */
export function decodePayment(proof: string, offer: Offer): DecodedPayment {
  let payment: unknown;
  try {
    payment = decodeJson(proof);
  } catch {
    return { ok: false, reason: 'invalid_payload', message: 'the payment is not base64-encoded JSON (an x402 PaymentPayload)' };
  }
  if (!isObject(payment)) return { ok: false, reason: 'invalid_payload', message: 'the payment is not a JSON object (an x402 PaymentPayload)' };
  if (payment.x402Version !== 1 && payment.x402Version !== 2) return { ok: false, reason: 'invalid_x402_version', message: 'x402Version must be 1 or 2' };
  if (!isObject(payment.payload)) return { ok: false, reason: 'invalid_payload', message: 'the payment has no payload object (signature and authorization)' };
  if (payment.x402Version === 1) {
    if (payment.scheme !== 'exact') return { ok: false, reason: 'unsupported_scheme', message: 'this server takes the exact scheme only' };
    if (payment.network !== offer.v1.network) return { ok: false, reason: 'invalid_network', message: `this server takes payments on ${offer.v1.network}` };
    return { ok: true, version: 1, payment, requirements: offer.v1 };
  }
  const accepted = payment.accepted;
  if (!isObject(accepted)) return { ok: false, reason: 'invalid_payload', message: 'an x402 v2 payment names the requirements it accepted (accepted)' };
  if (accepted.scheme !== 'exact') return { ok: false, reason: 'unsupported_scheme', message: 'this server takes the exact scheme only' };
  if (accepted.network !== offer.v2.network) return { ok: false, reason: 'invalid_network', message: `this server takes payments on ${offer.v2.network}` };
  if (accepted.amount !== offer.v2.amount || !sameAddress(accepted.payTo, offer.v2.payTo) || !sameAddress(accepted.asset, offer.v2.asset)) {
    return { ok: false, reason: 'invalid_payment_requirements', message: `the payment accepted other terms than offered (amount ${offer.v2.amount} of ${offer.v2.asset} to ${offer.v2.payTo})` };
  }
  return { ok: true, version: 2, payment, requirements: offer.v2 };
}

/**
 * The key a payment is used once under: the hash of its signed part (signature and authorization,
 * whose nonce the token contract also spends once), in canonical JSON, so re-encoding the same
 * authorization (other base64, other key order, v1 or v2 wrapper) is the same payment.
 */
export const proofKey = (payment: Record<string, unknown>): string =>
  createHash('sha256').update(`x402:${canonicalize(payment.payload) ?? ''}`).digest('hex');

/**
 * A 402 whose details are the x402 v1 body (plus what else the caller may do: the refills and the
 * reset) and whose headers carry the v2 offer (PAYMENT-REQUIRED). The doors send both shapes.
 */
export function paymentError(code: string, message: string, offer: Offer, extras: Record<string, unknown>, field?: string): AppError {
  return new AppError(402, code, message, field, { ...paymentRequiredV1(offer, message), ...extras }).withHeaders({ 'payment-required': encodeJson(paymentRequiredV2(offer, message)) });
}

/** The x402 offer an error carries (a 402 from paymentError), for the doors. */
export function x402Of(err: AppError): { v1: PaymentRequiredV1 & Record<string, unknown>; v2?: PaymentRequiredV2 } | undefined {
  const d = err.details;
  if (err.status !== 402 || !isObject(d) || d.x402Version !== 1 || !Array.isArray(d.accepts)) return undefined;
  let v2: PaymentRequiredV2 | undefined;
  const header = err.headers['payment-required'];
  if (header) {
    try {
      v2 = decodeJson(header) as PaymentRequiredV2;
    } catch {
      v2 = undefined;
    }
  }
  return { v1: d as PaymentRequiredV1 & Record<string, unknown>, ...(v2 ? { v2 } : {}) };
}

/** The headers that carry x402 data to an HTTP client (the MCP door copies them onto its response). */
export const X402_HEADERS = ['payment-required', 'payment-response', 'x-payment-response'] as const;
