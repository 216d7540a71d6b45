// x402 through the real doors: a test-only metered tool (a mesh_match unit) installed in
// the REST routes and the MCP catalog, so the 402 translation, the payment headers, MCP's
// `x402/error` result and `_meta["x402/payment"]` are exercised as a client meets them. Against a
// local facilitator on loopback; with x402 off the same call is a 429 quota_exhausted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, type TestApp } from './helpers/app.ts';
import { installTestTool, TEST_ROUTE, TEST_TOOL } from './helpers/metered-tool.ts';
import { startFacilitator, paymentV1, paymentV2, paymentV2Object, type Expected, type Facilitator } from './peers/x402-facilitator.ts';
import { X402_KNOWN_ASSETS } from '../src/config.ts';

installTestTool();

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
let fac: Facilitator;
let app: TestApp;
let plain: TestApp;
let expected: Expected;

before(async () => {
  fac = await startFacilitator();
  app = await startApp({ env: { X402_ENABLED: '1', X402_FACILITATOR_URL: fac.url, X402_PAY_TO: PAY_TO, PROBE_ALLOW_PRIVATE: '1' } });
  plain = await startApp();
  expected = {
    payTo: PAY_TO,
    asset: X402_KNOWN_ASSETS['base-sepolia']!.asset,
    amount: '100000',
    v1Network: 'base-sepolia',
    v2Network: 'eip155:84532',
    resource: `${app.config.publicBaseUrl}/api/mcp?event=mesh_match`,
  };
  fac.expected = expected;
});
after(async () => {
  await app.close();
  await plain.close();
  await fac.close();
});

let n = 0;
const newAddress = () => `203.0.113.${++n}`;
const decode = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));

async function rest(on: TestApp, address: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await on.http.inject({ method: 'POST', url: TEST_ROUTE, remoteAddress: address, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, body: res.json(), headers: res.headers as Record<string, string> };
}

let rpcId = 0;
async function mcp(on: TestApp, address: string, args: Record<string, unknown> = {}, extra: { headers?: Record<string, string>; meta?: Record<string, unknown> } = {}) {
  const res = await on.http.inject({
    method: 'POST',
    url: '/api/mcp',
    remoteAddress: address,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra.headers },
    payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: TEST_TOOL, arguments: args, ...(extra.meta ? { _meta: extra.meta } : {}) } },
  });
  assert.equal(res.statusCode, 200, res.body);
  return { result: res.json().result as { isError?: boolean; structuredContent: Record<string, any>; content: { text: string }[]; _meta?: Record<string, any> }, headers: res.headers as Record<string, string> };
}

async function useUpRest(on: TestApp, address: string) {
  for (let i = 0; i < 5; i++) assert.equal((await rest(on, address)).status, 200);
}

test('REST: past the allowance a 402 whose body is the x402 v1 body and whose PAYMENT-REQUIRED header is the v2 offer', async () => {
  const address = newAddress();
  await useUpRest(app, address);
  const res = await rest(app, address);
  assert.equal(res.status, 402);
  assert.equal(res.body.x402Version, 1);
  assert.equal(typeof res.body.error, 'string', 'x402 v1: error is a string');
  assert.equal(res.body.accepts.length, 1);
  const [offer] = res.body.accepts;
  for (const field of ['scheme', 'network', 'maxAmountRequired', 'resource', 'description', 'mimeType', 'payTo', 'maxTimeoutSeconds', 'asset', 'extra']) assert.ok(field in offer, field);
  assert.deepEqual([offer.scheme, offer.network, offer.maxAmountRequired, offer.payTo, offer.resource], ['exact', 'base-sepolia', '100000', PAY_TO, expected.resource]);
  assert.equal(res.body.ok, false);
  assert.equal(res.body.code, 'payment_required');
  assert.ok(res.body.request_id);
  assert.ok(res.body.refills.length > 0, 'the free ways are listed too');
  const v2 = decode(res.headers['payment-required']!);
  assert.deepEqual([v2.x402Version, v2.accepts[0].network, v2.accepts[0].amount], [2, 'eip155:84532', '100000']);
});

test('REST: X-PAYMENT (v1) and PAYMENT-SIGNATURE (v2) pay, with X-PAYMENT-RESPONSE / PAYMENT-RESPONSE; a replay is a 402 payment_reused', async () => {
  const address = newAddress();
  await useUpRest(app, address);
  const proof = paymentV1(expected);
  const paid = await rest(app, address, {}, { 'x-payment': proof });
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
  assert.equal(paid.body.meter.paid_today, 1);
  assert.equal(paid.body.payment.settled, true);
  const receipt = decode(paid.headers['x-payment-response']!);
  assert.equal(receipt.success, true);
  assert.equal(receipt.transaction, paid.body.payment.transaction);
  assert.equal(paid.headers['payment-response'], paid.headers['x-payment-response']);
  const v2 = await rest(app, address, {}, { 'payment-signature': paymentV2(expected) });
  assert.equal(v2.status, 200, JSON.stringify(v2.body));
  assert.equal(v2.body.meter.paid_today, 2);
  const replay = await rest(app, address, {}, { 'x-payment': proof });
  assert.equal(replay.status, 402);
  assert.equal(replay.body.code, 'payment_reused');
  assert.equal(replay.body.x402Version, 1);
  const invalid = await rest(app, address, { payment_proof: paymentV1(expected, 'bad-signature') });
  assert.equal(invalid.status, 402);
  assert.equal(invalid.body.code, 'payment_invalid');
  assert.match(invalid.body.error, /invalid_exact_evm_payload_signature/);
  assert.equal(invalid.body.reason, 'invalid_exact_evm_payload_signature');
});

test('REST: a facilitator that cannot be reached is a 503 in the ordinary error shape', async () => {
  const address = newAddress();
  await useUpRest(app, address);
  fac.mode = 'hangup';
  try {
    const res = await rest(app, address, {}, { 'x-payment': paymentV1(expected) });
    assert.equal(res.status, 503);
    assert.equal(res.body.ok, false);
    assert.equal(res.body.error.code, 'facilitator_unavailable');
    assert.ok(res.headers['retry-after']);
  } finally {
    fac.mode = 'normal';
  }
});

test('REST with x402 off: 429 quota_exhausted with the refills, the reset and Retry-After, no x402 offer', async () => {
  const address = newAddress();
  await useUpRest(plain, address);
  const res = await rest(plain, address, {}, { 'x-payment': paymentV1(expected) });
  assert.equal(res.status, 429);
  assert.equal(res.body.error.code, 'quota_exhausted');
  assert.ok(res.body.error.details.refills.length > 0);
  assert.ok(res.body.error.details.resets_at);
  assert.ok(Number(res.headers['retry-after']) > 0);
  assert.equal(res.headers['payment-required'], undefined);
  assert.equal(res.body.x402Version, undefined);
});

test('MCP: past the allowance an isError result carrying x402/error (the v2 offer) and the PAYMENT-REQUIRED header', async () => {
  const address = newAddress();
  for (let i = 0; i < 5; i++) assert.ok(!(await mcp(app, address)).result.isError);
  const { result, headers } = await mcp(app, address);
  assert.equal(result.isError, true);
  const sc = result.structuredContent;
  assert.equal(sc.ok, false);
  assert.equal(sc.error.code, 'payment_required');
  assert.equal(sc.error.details.x402Version, 1);
  const wrapped = sc['x402/error'];
  assert.equal(wrapped.code, 402);
  assert.equal(typeof wrapped.message, 'string');
  assert.equal(wrapped.data.x402Version, 2);
  assert.deepEqual([wrapped.data.accepts[0].amount, wrapped.data.accepts[0].payTo, wrapped.data.accepts[0].network], ['100000', PAY_TO, 'eip155:84532']);
  // The x402 MCP client reads content[0].text for the wrapper.
  assert.deepEqual(JSON.parse(result.content[0]!.text)['x402/error'], wrapped);
  assert.deepEqual(decode(headers['payment-required']!), wrapped.data);
});

test('MCP: a payment in _meta["x402/payment"] or the X-PAYMENT header pays; the receipt is in _meta and the headers', async () => {
  const address = newAddress();
  for (let i = 0; i < 5; i++) await mcp(app, address);
  const viaMeta = await mcp(app, address, {}, { meta: { 'x402/payment': paymentV2Object(expected) } });
  assert.ok(!viaMeta.result.isError, JSON.stringify(viaMeta.result.structuredContent));
  assert.equal(viaMeta.result.structuredContent.meter.paid_today, 1);
  const receipt = viaMeta.result._meta!['x402/payment-response'];
  assert.equal(receipt.success, true);
  assert.deepEqual(decode(viaMeta.headers['payment-response']!), receipt);
  const viaHeader = await mcp(app, address, {}, { headers: { 'x-payment': paymentV1(expected) } });
  assert.ok(!viaHeader.result.isError, JSON.stringify(viaHeader.result.structuredContent));
  assert.equal(viaHeader.result.structuredContent.meter.paid_today, 2);
  const refused = await mcp(app, address, { payment_proof: paymentV1(expected, 'bad-signature') });
  assert.equal(refused.result.isError, true);
  assert.equal(refused.result.structuredContent.error.code, 'payment_invalid');
  assert.equal(refused.result.structuredContent['x402/error'].code, 402);
});

test('MCP with x402 off: quota_exhausted is an isError result without an x402 offer', async () => {
  const address = newAddress();
  for (let i = 0; i < 5; i++) await mcp(plain, address);
  const { result, headers } = await mcp(plain, address);
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent.error.code, 'quota_exhausted');
  assert.equal(result.structuredContent['x402/error'], undefined);
  assert.equal(headers['payment-required'], undefined);
});

test('the official MCP SDK client meets the 402 as a readable tool result and pays with _meta', async () => {
  const base = await app.listen();
  const client = new Client({ name: 'x402-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  try {
    const args = { agent_name: 'sdk-payer' };
    for (let i = 0; i < 5; i++) await client.callTool({ name: TEST_TOOL, arguments: args });
    const required = await client.callTool({ name: TEST_TOOL, arguments: args });
    assert.equal(required.isError, true);
    const sc = required.structuredContent as Record<string, any>;
    assert.equal(sc['x402/error'].data.accepts[0].amount, '100000');
    const paid = await client.callTool({ name: TEST_TOOL, arguments: args, _meta: { 'x402/payment': paymentV2Object(expected) } });
    assert.ok(!paid.isError, JSON.stringify(paid.structuredContent));
    assert.equal((paid.structuredContent as Record<string, any>).meter.paid_today, 1);
    assert.equal((paid._meta as Record<string, any>)['x402/payment-response'].success, true);
  } finally {
    await client.close();
  }
});
