// x402 through improve_kernel itself, at the MCP door with the official SDK client and
// with raw JSON-RPC for the header forms: the free allowance runs out, the next call is an isError
// result carrying the x402 offer for improve_kernel's price, a payment checked by the local
// facilitator on loopback (test/peers/x402-facilitator.ts) buys the kernel, and a refused payment
// buys nothing (no kernel in the answer, no unit charged). An agent name is a label inside its
// address's allowance: the allowance, the usage and the payments are the address's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, startApp, type TestApp } from './helpers/app.ts';
import { nameSubject } from './helpers/value-tools.ts';
import { startFacilitator, paymentV1, paymentV2Object, type Expected, type Facilitator } from './peers/x402-facilitator.ts';
import { X402_KNOWN_ASSETS } from '../src/config.ts';
import { meteredEvent } from '../src/metering/events.ts';
import { addressHash } from '../src/metering/caller.ts';
import type { ManualClock } from '../src/platform/clock.ts';

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
const KERNEL = meteredEvent('improve_kernel');
let fac: Facilitator;
let app: TestApp;
let client: Client;
let expected: Expected;

before(async () => {
  fac = await startFacilitator();
  app = await startApp({ env: { X402_ENABLED: '1', X402_FACILITATOR_URL: fac.url, X402_PAY_TO: PAY_TO, PROBE_ALLOW_PRIVATE: '1' } });
  const base = await app.listen();
  client = new Client({ name: 'x402-kernel-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  await client.listTools(); // results are then checked against improve_kernel's outputSchema
  expected = {
    payTo: PAY_TO,
    asset: X402_KNOWN_ASSETS['base-sepolia']!.asset,
    // 25 cents in USDC's 6 decimals.
    amount: String(KERNEL.price_cents * 10_000),
    v1Network: 'base-sepolia',
    v2Network: 'eip155:84532',
    resource: `${app.config.publicBaseUrl}/api/mcp?event=improve_kernel`,
  };
  fac.expected = expected;
});
after(async () => {
  await client.close();
  await app.close();
  await fac.close();
});

type Result = { isError?: boolean; structuredContent: Record<string, any>; _meta?: Record<string, any> };
const kernel = async (args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await client.callTool({ name: 'improve_kernel', arguments: args, ...(meta ? { _meta: meta } : {}) })) as unknown as Result;

const GOALS = ['Answer billing questions for small shops', 'Cite the invoice line you used', 'Stay under 200 words'];

/** The allowance every call of this file spends: the loopback address's (the names are labels in it). */
const ADDRESS = `addr:${addressHash('127.0.0.1')}`;

const versionsOf = async (name: string) => (await app.sql.selectFrom('kernel_versions').select('version').where('subject', '=', nameSubject(name)).execute()).length;

test(`improve_kernel past its free allowance: the x402 offer, then a paid kernel through the facilitator (${engine})`, async () => {
  assert.equal(KERNEL.price_cents, 25);
  const args = { agent_name: 'x402-kernel-payer', goals: GOALS };
  for (let i = 0; i < KERNEL.free_per_day; i++) {
    const free = await kernel(args);
    assert.ok(!free.isError, JSON.stringify(free.structuredContent));
    assert.equal(free.structuredContent.meter.paid_today, 0);
  }
  // The allowance is used up: an isError result with the payment requirements, no kernel made.
  const required = await kernel(args);
  assert.equal(required.isError, true);
  const sc = required.structuredContent;
  assert.equal(sc.error.code, 'payment_required');
  assert.equal(sc.error.details.x402Version, 1);
  const [v1] = sc.error.details.accepts;
  assert.deepEqual([v1.scheme, v1.network, v1.maxAmountRequired, v1.payTo, v1.resource], ['exact', 'base-sepolia', expected.amount, PAY_TO, expected.resource]);
  const offer = sc['x402/error'];
  assert.equal(offer.code, 402);
  assert.deepEqual([offer.data.x402Version, offer.data.accepts[0].amount, offer.data.accepts[0].network, offer.data.accepts[0].payTo], [2, expected.amount, 'eip155:84532', PAY_TO]);
  assert.ok(sc.error.details.refills.some((r: { action: string }) => r.action === 'deposit_outcome'), 'the free ways are listed too');
  assert.equal(await versionsOf('x402-kernel-payer'), KERNEL.free_per_day);

  // A payment in _meta["x402/payment"]: verified, the kernel made, then settled; the receipt in _meta.
  fac.calls.length = 0;
  const paid = await kernel(args, { 'x402/payment': paymentV2Object(expected) });
  assert.ok(!paid.isError, JSON.stringify(paid.structuredContent));
  assert.ok(paid.structuredContent.system_prompt_short.length > 0 && paid.structuredContent.system_prompt_short.length <= 600);
  assert.equal(paid.structuredContent.version, KERNEL.free_per_day + 1);
  assert.equal(paid.structuredContent.meter.paid_today, 1);
  assert.equal(paid._meta!['x402/payment-response'].success, true);
  assert.deepEqual(fac.calls.map((c) => c.path), ['/verify', '/settle']);
  for (const c of fac.calls) assert.deepEqual(c.problems, [], `${c.path}: Rollcall sent what a facilitator needs`);

  // The payment_proof argument (x402 v1) pays as well; a replay of it is refused.
  const proof = paymentV1(expected);
  const again = await kernel({ ...args, payment_proof: proof });
  assert.ok(!again.isError, JSON.stringify(again.structuredContent));
  assert.equal(again.structuredContent.meter.paid_today, 2);
  const replay = await kernel({ ...args, payment_proof: proof });
  assert.equal(replay.structuredContent.error.code, 'payment_reused');
  const row = await app.sql.selectFrom('x402_payments').selectAll().where('subject', '=', ADDRESS).execute();
  assert.equal(row.filter((r: { status: string }) => r.status === 'settled').length, 2);
});

test(`a refused payment buys no kernel and charges nothing (${engine})`, async () => {
  // A fresh UTC day: the address's free allowance starts again (the first test used it up).
  (app.clock as ManualClock).advance(86_400_000);
  const day = app.clock.now().toISOString().slice(0, 10);
  const args = { agent_name: 'x402-kernel-refused', goals: GOALS };
  for (let i = 0; i < KERNEL.free_per_day; i++) assert.ok(!(await kernel(args)).isError);
  const refused = await kernel(args, { 'x402/payment': paymentV2Object(expected, 'bad-signature') });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent.error.code, 'payment_invalid');
  assert.equal(refused.structuredContent['x402/error'].code, 402);
  assert.equal(await versionsOf('x402-kernel-refused'), KERNEL.free_per_day, 'a payment refused at /verify runs no work');
  // Refused at /settle: the result is withheld and nothing charged (the kernel version the work
  // wrote stays, a record rather than goods: docs/decisions/x402.md).
  const failed = await kernel(args, { 'x402/payment': paymentV2Object(expected, 'settle-fails') });
  assert.equal(failed.isError, true);
  assert.equal(failed.structuredContent.error.code, 'payment_failed');
  assert.equal(failed.structuredContent.kernel_id, undefined, 'no kernel in the answer');
  const usage = await app.sql.selectFrom('meter_usage').selectAll().where('subject', '=', ADDRESS).where('day', '=', day).where('event_id', '=', 'improve_kernel').executeTakeFirstOrThrow();
  assert.equal(Number(usage.paid), 0);
});
