// x402 payments beyond the free allowance, end to end through metered() with a ctx made
// from a real app's services, against a local facilitator on loopback that checks what Rollcall
// sends: the 402 offer in both shapes, a valid payment (verified before the work, paid unit, settled,
// receipt), refused, replayed, unsettled and unreachable payments, always-free events (never
// offered x402: daily_cap_reached past their cap), x402 off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from './helpers/app.ts';
import { startFacilitator, paymentV1, paymentV2, paymentV2Object, authorization, type Expected, type Facilitator } from './peers/x402-facilitator.ts';
import { metered } from '../src/metering/run.ts';
import { AppError } from '../src/platform/errors.ts';
import type { Ctx } from '../src/platform/operation.ts';
import type { Executor } from '../src/platform/db/executor.ts';
import { addressHash, type Subject } from '../src/metering/caller.ts';
import type { EventId } from '../src/metering/events.ts';
import { deposit } from '../src/traces/store.ts';
import { subjectKey } from '../src/traces/subjects.ts';
import { X402_KNOWN_ASSETS } from '../src/config.ts';
import { ManualClock } from '../src/platform/clock.ts';

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
let fac: Facilitator;
let app: TestApp;
let expected: Expected;
const clock = new ManualClock('2026-11-01T12:00:00.000Z');

before(async () => {
  fac = await startFacilitator();
  // The facilitator is on loopback: PROBE_ALLOW_PRIVATE=1 lets the guarded client reach it (docs/decisions/x402.md).
  app = await startApp({ clock, env: { X402_ENABLED: '1', X402_FACILITATOR_URL: fac.url, X402_PAY_TO: PAY_TO, PROBE_ALLOW_PRIVATE: '1' } });
  expected = {
    payTo: PAY_TO,
    asset: X402_KNOWN_ASSETS['base-sepolia']!.asset,
    amount: '100000', // mesh_match: 10 cents = 0.10 USDC = 100000 atomic units (6 decimals)
    v1Network: 'base-sepolia',
    v2Network: 'eip155:84532',
    resource: `${app.config.publicBaseUrl}/api/mcp?event=mesh_match`,
  };
  fac.expected = expected;
});
after(async () => {
  await app.close();
  await fac.close();
});

let n = 0;
/** A fresh caller (its own address, so its own allowance) and the ctx a door would build for it. */
function caller(extra: Partial<Ctx> = {}, on: TestApp = app): Ctx {
  n += 1;
  return { ...on.services, caller: { address: `198.51.100.${n}` }, requestId: `req-${n}`, response: { headers: {}, meta: {} }, ...extra };
}

let ran = 0;
async function work(trx: Executor, subject: Subject) {
  ran += 1;
  fac.log.push('work');
  await deposit(trx, { channel: 'demand', subject: subjectKey({ kind: 'capability', capability: 'x402-test' }), intensity: 1, body: null, depositor: subject.key, at: clock.now() });
  return { matched: true };
}

async function useUp(ctx: Ctx, event: EventId = 'mesh_match', free = 5) {
  for (let i = 0; i < free; i++) await metered(ctx, {}, event, work);
}

const fails = (code: string, status: number) => (err: unknown) => {
  assert.ok(err instanceof AppError, String(err));
  assert.equal(err.code, code, err.message);
  assert.equal(err.status, status);
  return true;
};

async function usage(subjectKeyPrefix: string, event = 'mesh_match') {
  return app.sql.selectFrom('meter_usage').selectAll().where('subject', 'like', `${subjectKeyPrefix}%`).where('event_id', '=', event).executeTakeFirst();
}

const decode = (b64: string) => JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));

test('no payment past the allowance: 402 payment_required with the v1 body in details and the v2 offer in PAYMENT-REQUIRED', async () => {
  const ctx = caller();
  await useUp(ctx);
  const before = fac.calls.length;
  const err = await metered(ctx, {}, 'mesh_match', work).then(
    () => assert.fail('expected a 402'),
    (e: unknown) => e as AppError,
  );
  assert.ok(err instanceof AppError);
  assert.equal(err.status, 402);
  assert.equal(err.code, 'payment_required');
  const v1 = err.details as Record<string, any>;
  assert.equal(v1.x402Version, 1);
  assert.equal(typeof v1.error, 'string');
  assert.match(v1.error, /mesh_match/);
  assert.equal(v1.accepts.length, 1);
  assert.deepEqual(v1.accepts[0], {
    scheme: 'exact',
    network: 'base-sepolia',
    maxAmountRequired: '100000',
    resource: expected.resource,
    description: v1.accepts[0].description,
    mimeType: 'application/json',
    outputSchema: null,
    payTo: PAY_TO,
    maxTimeoutSeconds: 60,
    asset: expected.asset,
    extra: { name: 'USDC', version: '2' },
  });
  // The free ways stay on offer beside the price.
  assert.equal(v1.resets_at, '2026-11-02T00:00:00.000Z');
  assert.ok(v1.refills.some((r: { action: string }) => r.action === 'leave_feedback'));
  const v2 = decode(err.headers['payment-required']!);
  assert.equal(v2.x402Version, 2);
  assert.equal(v2.resource.url, expected.resource);
  assert.deepEqual(v2.accepts[0], { scheme: 'exact', network: 'eip155:84532', amount: '100000', asset: expected.asset, payTo: PAY_TO, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' } });
  assert.equal(fac.calls.length, before, 'no payment, no facilitator call');
});

test('a valid v1 payment: verified before the work, the work runs once, a paid unit is recorded, then settled with a receipt', async () => {
  const ctx = caller();
  await useUp(ctx);
  fac.log.length = 0;
  const ranBefore = ran;
  const proof = paymentV1(expected);
  const paid = await metered({ ...ctx, payment: proof }, {}, 'mesh_match', work);
  assert.deepEqual(fac.log, ['verify', 'work', 'settle']);
  assert.equal(ran, ranBefore + 1);
  assert.deepEqual(paid.result, { matched: true });
  assert.equal(paid.meter.used_today, 5);
  assert.equal(paid.meter.paid_today, 1);
  assert.equal(paid.meter.remaining, 0);
  assert.equal(paid.payment?.settled, true);
  assert.match(paid.payment!.transaction!, /^0x[0-9a-f]{64}$/);
  assert.equal(paid.payment?.amount, '100000');
  assert.equal(paid.payment?.network, 'base-sepolia');
  assert.equal(paid.payment?.pay_to, PAY_TO);
  // Both facilitator calls carried the offer the 402 made, in v1 form.
  const [verify, settle] = fac.calls.slice(-2);
  assert.equal(verify!.path, '/verify');
  assert.equal(settle!.path, '/settle');
  for (const call of [verify!, settle!]) {
    assert.deepEqual(call.problems, []);
    assert.equal(call.body.x402Version, 1);
    assert.equal(call.body.paymentRequirements.payTo, PAY_TO);
    assert.equal(call.body.paymentRequirements.maxAmountRequired, '100000');
    assert.equal(call.body.paymentRequirements.resource, expected.resource);
  }
  // The receipt for the doors: X-PAYMENT-RESPONSE / PAYMENT-RESPONSE and MCP _meta.
  const receipt = decode(ctx.response!.headers['x-payment-response']!);
  assert.equal(receipt.success, true);
  assert.equal(receipt.transaction, paid.payment!.transaction);
  assert.equal(ctx.response!.headers['payment-response'], ctx.response!.headers['x-payment-response']);
  assert.deepEqual(ctx.response!.meta['x402/payment-response'], receipt);
  const row = await usage(paid.subject.key);
  assert.deepEqual([row?.used, row?.paid], [5, 1]);
  const payments = await app.sql.selectFrom('x402_payments').selectAll().where('subject', '=', paid.subject.key).execute();
  assert.equal(payments.length, 1);
  assert.equal(payments[0]!.status, 'settled');
  assert.equal(payments[0]!.tx, paid.payment!.transaction);

  // The same proof again: refused before the facilitator is asked, nothing runs.
  const calls = fac.calls.length;
  await assert.rejects(metered({ ...ctx, payment: proof }, {}, 'mesh_match', work), fails('payment_reused', 402));
  // Re-encoded (the JSON itself as payment_proof) it is still the same payment.
  await assert.rejects(metered(ctx, { payment_proof: Buffer.from(proof, 'base64').toString('utf8') }, 'mesh_match', work), fails('payment_reused', 402));
  assert.equal(fac.calls.length, calls);
  assert.equal(ran, ranBefore + 1);
  assert.equal((await usage(paid.subject.key))?.paid, 1);
});

test('the payment_proof argument and an x402 v2 payment (PAYMENT-SIGNATURE form) pay the same way', async () => {
  const ctx = caller();
  await useUp(ctx);
  const v2 = await metered(ctx, { payment_proof: paymentV2(expected) }, 'mesh_match', work);
  assert.equal(v2.payment?.x402_version, 2);
  assert.equal(v2.meter.paid_today, 1);
  const [verify, settle] = fac.calls.slice(-2);
  for (const call of [verify!, settle!]) {
    assert.deepEqual(call.problems, []);
    assert.equal(call.body.x402Version, 2);
    assert.equal(call.body.paymentRequirements.network, 'eip155:84532');
    assert.equal(call.body.paymentRequirements.amount, '100000');
  }
  // A v2 payment that accepted other terms is refused here, before the facilitator.
  const calls = fac.calls.length;
  await assert.rejects(metered(ctx, { payment_proof: paymentV2(expected, 'valid', { amount: '1' }) }, 'mesh_match', work), (err: unknown) => {
    fails('payment_invalid', 402)(err);
    assert.equal(((err as AppError).details as { reason: string }).reason, 'invalid_payment_requirements');
    return true;
  });
  await assert.rejects(metered(ctx, { payment_proof: paymentV2(expected, 'valid', { network: 'eip155:1' }) }, 'mesh_match', work), fails('payment_invalid', 402));
  assert.equal(fac.calls.length, calls);
  // The JSON object of MCP's _meta["x402/payment"] works as payment_proof too.
  const asJson = await metered(ctx, { payment_proof: JSON.stringify(paymentV2Object(expected)) }, 'mesh_match', work);
  assert.equal(asJson.meter.paid_today, 2);
});

test('a payment the facilitator refuses: 402 payment_invalid with its reason, no work, nothing charged, the proof not burnt', async () => {
  const ctx = caller();
  await useUp(ctx);
  const ranBefore = ran;
  const bad = paymentV1(expected, 'bad-signature');
  await assert.rejects(metered({ ...ctx, payment: bad }, {}, 'mesh_match', work), (err: unknown) => {
    fails('payment_invalid', 402)(err);
    const e = err as AppError;
    assert.match(e.message, /invalid_exact_evm_payload_signature/);
    assert.equal((e.details as { reason: string }).reason, 'invalid_exact_evm_payload_signature');
    assert.equal((e.details as { x402Version: number }).x402Version, 1, 'the refusal carries the offer again');
    assert.ok(e.headers['payment-required']);
    return true;
  });
  assert.equal(ran, ranBefore);
  assert.equal(fac.calls.at(-1)!.path, '/verify');
  const key = `addr:${addressHash(ctx.caller.address)}`;
  assert.deepEqual([(await usage(key))?.used, (await usage(key))?.paid], [5, 0]);
  assert.equal((await app.sql.selectFrom('x402_payments').selectAll().where('subject', '=', key).execute()).length, 0);
  // Refused is not spent: offered again it is checked again (and refused again).
  const verifies = fac.calls.length;
  await assert.rejects(metered({ ...ctx, payment: bad }, {}, 'mesh_match', work), fails('payment_invalid', 402));
  assert.equal(fac.calls.length, verifies + 1);
  // Malformed payments are refused without asking anyone.
  const calls = fac.calls.length;
  for (const junk of ['not base64 at all!', Buffer.from('[1,2]').toString('base64'), Buffer.from(JSON.stringify({ x402Version: 3, payload: {} })).toString('base64')]) {
    await assert.rejects(metered({ ...ctx, payment: junk }, {}, 'mesh_match', work), fails('payment_invalid', 402));
  }
  assert.equal(fac.calls.length, calls);
  assert.equal(ran, ranBefore);
});

test('a payment that does not settle: 402 payment_failed, the result withheld, the paid unit given back', async () => {
  const ctx = caller();
  await useUp(ctx);
  const ranBefore = ran;
  const proof = paymentV1(expected, 'settle-fails');
  await assert.rejects(metered({ ...ctx, payment: proof }, {}, 'mesh_match', work), (err: unknown) => {
    fails('payment_failed', 402)(err);
    const e = err as AppError;
    assert.match(e.message, /insufficient_funds/);
    assert.equal(decode(e.headers['x-payment-response']!).success, false);
    return true;
  });
  assert.equal(ran, ranBefore + 1, 'the work ran (x402 settles after the work)');
  const rows = await app.sql.selectFrom('x402_payments').selectAll().where('status', '=', 'settle_failed').execute();
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.reason, 'insufficient_funds');
  assert.equal((await usage(rows[0]!.subject))?.paid, 0);
  // A payment that did not settle stays spent here.
  await assert.rejects(metered({ ...ctx, payment: proof }, {}, 'mesh_match', work), fails('payment_reused', 402));
});

test('two calls with one payment at once: one runs, the other is payment_reused', async () => {
  const ctx = caller();
  await useUp(ctx);
  const proof = paymentV1(expected);
  const results = await Promise.allSettled([metered({ ...ctx, payment: proof }, {}, 'mesh_match', work), metered({ ...ctx, payment: proof }, {}, 'mesh_match', work)]);
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  assert.equal((refused.reason as AppError).code, 'payment_reused');
});

test('facilitator unreachable or broken: a clear 503/502, no work, nothing charged, and the same payment works once it is back', async () => {
  const ctx = caller();
  await useUp(ctx);
  const ranBefore = ran;
  const proof = paymentV1(expected);
  try {
    fac.mode = 'hangup';
    await assert.rejects(metered({ ...ctx, payment: proof }, {}, 'mesh_match', work), (err: unknown) => {
      fails('facilitator_unavailable', 503)(err);
      assert.match((err as AppError).message, /nothing was charged/);
      assert.ok((err as AppError).headers['retry-after']);
      return true;
    });
    fac.mode = 'error500';
    await assert.rejects(metered({ ...ctx, payment: proof }, {}, 'mesh_match', work), fails('facilitator_unavailable', 503));
    fac.mode = 'junk';
    await assert.rejects(metered({ ...ctx, payment: proof }, {}, 'mesh_match', work), fails('facilitator_error', 502));
  } finally {
    fac.mode = 'normal';
  }
  assert.equal(ran, ranBefore);
  const subject = (await metered(ctx, { payment_proof: proof }, 'mesh_match', work)).subject;
  assert.equal(ran, ranBefore + 1);
  assert.equal((await usage(subject.key))?.paid, 1);
});

test('a facilitator on a private address is refused without PROBE_ALLOW_PRIVATE: 503, nothing runs', async () => {
  const strict = await startApp({ clock, env: { X402_ENABLED: '1', X402_FACILITATOR_URL: fac.url, X402_PAY_TO: PAY_TO } });
  try {
    const ctx = caller({}, strict);
    const noop = async () => 'ran';
    for (let i = 0; i < 5; i++) await metered(ctx, {}, 'mesh_match', noop);
    await assert.rejects(metered({ ...ctx, payment: paymentV1(expected) }, {}, 'mesh_match', noop), (err: unknown) => {
      fails('facilitator_unavailable', 503)(err);
      assert.match((err as AppError).message, /blocked_address/);
      return true;
    });
  } finally {
    await strict.close();
  }
});

test('with a free unit left, a payment sent along is not used', async () => {
  const ctx = caller();
  const calls = fac.calls.length;
  const r = await metered({ ...ctx, payment: paymentV1(expected) }, {}, 'mesh_match', work);
  assert.equal(r.payment, undefined);
  assert.equal(r.meter.used_today, 1);
  assert.equal(fac.calls.length, calls);
});

test('an always-free event is never offered x402: past its daily cap it is daily_cap_reached, even with a payment', async () => {
  const ctx = caller();
  await useUp(ctx, 'network_sense', 10);
  const calls = fac.calls.length;
  for (const payment of [undefined, paymentV1(expected)]) {
    await assert.rejects(metered({ ...ctx, ...(payment ? { payment } : {}) }, {}, 'network_sense', work), (err: unknown) => {
      fails('daily_cap_reached', 429)(err);
      assert.equal((err as AppError).headers['payment-required'], undefined);
      assert.equal(((err as AppError).details as { payable: boolean }).payable, false);
      return true;
    });
  }
  assert.equal(fac.calls.length, calls);
});

test('X402_ENABLED off: past the allowance a 429 quota_exhausted that lists the refills and the reset time', async () => {
  const plain = await startApp({ clock });
  try {
    const ctx = caller({}, plain);
    const noop = async () => 'ran';
    for (let i = 0; i < 5; i++) await metered(ctx, {}, 'mesh_match', noop);
    await assert.rejects(metered({ ...ctx, payment: paymentV1(expected) }, {}, 'mesh_match', noop), (err: unknown) => {
      fails('quota_exhausted', 429)(err);
      const e = err as AppError;
      const d = e.details as { resets_at: string; refills: { action: string; grants_left_today: number }[] };
      assert.equal(d.resets_at, '2026-11-02T00:00:00.000Z');
      assert.deepEqual(
        d.refills.map((r) => r.action),
        ['leave_feedback', 'leave_trace', 'endorse'],
      );
      assert.ok(d.refills.every((r) => r.grants_left_today > 0));
      assert.match(e.message, /leave_feedback, leave_trace, endorse/);
      assert.equal(e.headers['retry-after'], String(12 * 3600));
      return true;
    });
  } finally {
    await plain.close();
  }
});

test('a paid unit is counted apart: the next day starts with the free allowance again', async () => {
  const ctx = caller();
  await useUp(ctx);
  const paid = await metered({ ...ctx, payment: paymentV1(expected) }, {}, 'mesh_match', work);
  assert.equal(paid.meter.paid_today, 1);
  clock.advance(24 * 3600 * 1000);
  try {
    const next = await metered(ctx, {}, 'mesh_match', work);
    assert.equal(next.meter.used_today, 1);
    assert.equal(next.meter.paid_today, 0);
    assert.equal(next.payment, undefined);
  } finally {
    clock.advance(-24 * 3600 * 1000);
  }
});

test('the proof hash ignores the wrapper: the same authorization in v1 and v2 is one payment', async () => {
  const ctx = caller();
  await useUp(ctx);
  const auth = authorization(expected);
  await metered(ctx, { payment_proof: paymentV1(expected, 'valid', auth) }, 'mesh_match', work);
  const v2 = Buffer.from(JSON.stringify({ ...paymentV2Object(expected), payload: auth })).toString('base64');
  await assert.rejects(metered(ctx, { payment_proof: v2 }, 'mesh_match', work), fails('payment_reused', 402));
});
