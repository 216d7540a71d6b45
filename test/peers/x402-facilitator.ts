// A local x402 facilitator on loopback (the coinbase/x402 facilitator interface: POST /verify and
// POST /settle with {x402Version, paymentPayload, paymentRequirements}). It checks what Rollcall
// sends as a real facilitator would: the versions agree, the requirements are the ones Rollcall
// offered in its 402 (payTo, network, amount, asset, resource), and the signed authorization pays
// that amount to that address. The "signature" of a test payment says how it goes: `valid`,
// `bad-signature` (refused at /verify), `settle-fails` (verified, refused at /settle).
// Tests read every request it got, in order, and can make it hang up, answer 500 or answer junk.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface SeenCall {
  path: '/verify' | '/settle';
  body: any;
  /** What did not match the expectation (empty: the request was what a facilitator needs). */
  problems: string[];
}

/** The terms the test expects Rollcall to ask for (the 402 offer). */
export interface Expected {
  payTo: string;
  asset: string;
  /** Atomic units of the event's price. */
  amount: string;
  v1Network: string;
  v2Network: string;
  /** The v1 resource URL. */
  resource: string;
}

export type Mode = 'normal' | 'hangup' | 'error500' | 'junk';

export interface Facilitator {
  url: string;
  calls: SeenCall[];
  /** Shared with the test's work function, so the order verify -> work -> settle can be checked. */
  log: string[];
  expected?: Expected;
  mode: Mode;
  close(): Promise<void>;
}

const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

function check(body: any, e: Expected | undefined): string[] {
  const problems: string[] = [];
  if (!body || typeof body !== 'object') return ['body is not an object'];
  const { x402Version, paymentPayload: p, paymentRequirements: r } = body;
  if (x402Version !== 1 && x402Version !== 2) problems.push(`x402Version ${x402Version}`);
  if (!p || p.x402Version !== x402Version) problems.push('paymentPayload.x402Version differs from x402Version');
  if (r?.scheme !== 'exact') problems.push('paymentRequirements.scheme is not exact');
  if (!e) return problems;
  if (lower(r?.payTo) !== lower(e.payTo)) problems.push(`payTo ${r?.payTo}`);
  if (lower(r?.asset) !== lower(e.asset)) problems.push(`asset ${r?.asset}`);
  if (x402Version === 1) {
    if (r?.network !== e.v1Network) problems.push(`network ${r?.network}`);
    if (r?.maxAmountRequired !== e.amount) problems.push(`maxAmountRequired ${r?.maxAmountRequired}`);
    if (r?.resource !== e.resource) problems.push(`resource ${r?.resource}`);
    if (typeof r?.maxTimeoutSeconds !== 'number') problems.push('maxTimeoutSeconds');
    if (p?.network !== r?.network) problems.push('payload network differs');
  } else {
    if (r?.network !== e.v2Network) problems.push(`network ${r?.network}`);
    if (r?.amount !== e.amount) problems.push(`amount ${r?.amount}`);
  }
  const auth = p?.payload?.authorization;
  if (!auth || auth.value !== e.amount || lower(auth.to) !== lower(e.payTo)) problems.push('the authorization does not pay the amount to payTo');
  return problems;
}

export async function startFacilitator(): Promise<Facilitator> {
  const state: Facilitator = { url: '', calls: [], log: [], mode: 'normal', close: async () => {} };
  const settled = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url === '/verify' || req.url === '/settle' ? req.url : undefined;
      if (req.method !== 'POST' || !path) {
        res.writeHead(404).end();
        return;
      }
      if (state.mode === 'hangup') {
        req.socket.destroy();
        return;
      }
      if (state.mode === 'error500') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
        return;
      }
      if (state.mode === 'junk') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
        return;
      }
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const problems = check(body, state.expected);
      state.calls.push({ path, body, problems });
      state.log.push(path.slice(1));
      const p = body?.paymentPayload?.payload;
      const payer = p?.authorization?.from ?? '0xpayer';
      const network = body?.paymentRequirements?.network;
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (path === '/verify') {
        if (problems.length) return json(400, { isValid: false, invalidReason: 'invalid_payment_requirements', payer });
        if (p.signature === 'bad-signature') return json(200, { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature', payer });
        return json(200, { isValid: true, payer });
      }
      if (problems.length) return json(400, { success: false, errorReason: 'invalid_payment_requirements', transaction: '', network, payer });
      if (p.signature === 'settle-fails') return json(200, { success: false, errorReason: 'insufficient_funds', transaction: '', network, payer });
      const nonce = String(p.authorization?.nonce);
      // The token contract spends a nonce once: a second settle of the same authorization fails.
      if (settled.has(nonce)) return json(200, { success: false, errorReason: 'invalid_transaction_state', transaction: '', network, payer });
      settled.add(nonce);
      return json(200, { success: true, transaction: `0x${randomBytes(32).toString('hex')}`, network, payer });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A signed-looking EIP-3009 authorization (the facilitator here checks its fields, not its signature). */
export function authorization(e: Pick<Expected, 'amount' | 'payTo'>, signature = 'valid') {
  return {
    signature,
    authorization: {
      from: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
      to: e.payTo,
      value: e.amount,
      validAfter: '0',
      validBefore: String(2 ** 40),
      nonce: `0x${randomBytes(32).toString('hex')}`,
    },
  };
}

/** An x402 v1 payment as sent in X-PAYMENT (base64 JSON). */
export function paymentV1(e: Expected, signature = 'valid', payload = authorization(e, signature)): string {
  return Buffer.from(JSON.stringify({ x402Version: 1, scheme: 'exact', network: e.v1Network, payload })).toString('base64');
}

/** An x402 v2 payment object (as in PAYMENT-SIGNATURE, base64, or MCP `_meta["x402/payment"]`). */
export function paymentV2Object(e: Expected, signature = 'valid', accepted: Record<string, unknown> = {}) {
  return {
    x402Version: 2,
    resource: { url: e.resource, description: 'test', mimeType: 'application/json' },
    accepted: { scheme: 'exact', network: e.v2Network, amount: e.amount, asset: e.asset, payTo: e.payTo, maxTimeoutSeconds: 60, ...accepted },
    payload: authorization(e, signature),
  };
}

export const paymentV2 = (e: Expected, signature = 'valid', accepted: Record<string, unknown> = {}): string =>
  Buffer.from(JSON.stringify(paymentV2Object(e, signature, accepted))).toString('base64');
