// One source of truth for every metering figure, through the official MCP SDK client over HTTP:
// several callers (each its own client address, forwarded by a trusted proxy) spend, refill and
// leave refills unused on several events, and every surface (the meter of a metered result,
// list_event_pricing, get_reciprocity, zero_mc_pack, cost_model per caller; get_exonomics for the
// network) says the same numbers, unit for unit. An always-free event past its daily cap says it
// is free and capped, when it comes back, and never offers a payment, with x402 off and on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, startApp, type TestApp } from './helpers/app.ts';
import { connect, type Tools } from './helpers/value-tools.ts';
import { installTestTool, TEST_TOOL } from './helpers/metered-tool.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { EVENT_IDS } from '../src/metering/events.ts';

installTestTool(); // a metered mesh_match unit, so the test leans on no mesh code

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
/** Seconds from the clock's noon to the UTC reset. */
const TO_RESET = 12 * 3600;
let app: TestApp;
let base: string;
const clients: Tools[] = [];

before(async () => {
  // Behind a proxy on loopback, each SDK client says its own address in X-Forwarded-For.
  app = await startApp({ clock, env: { TRUST_PROXY: '127.0.0.1' } });
  base = await app.listen();
});
after(async () => {
  for (const c of clients) await c.close();
  await app.close();
});

/** An SDK client of its own client address: a caller with its own allowance. */
async function callerAt(address: string): Promise<Tools> {
  const c = await connect(app, { base, headers: { 'x-forwarded-for': address } });
  clients.push(c);
  return c;
}

const goals = ['answer each support request in two sentences'];
const body = 'It answered the question and said plainly what it could not do.';

/** What each per-caller surface says about one caller, by event. */
async function perCaller(c: Tools) {
  const pricing = await c.ok('list_event_pricing', {});
  const reciprocity = await c.ok('get_reciprocity', {});
  const pack = await c.ok('zero_mc_pack', {});
  const cost = await c.ok('cost_model', { mix: Object.fromEntries(EVENT_IDS.map((e) => [e, 1])) });
  const usage = new Map<string, { used: number; refills: number; paid: number; remaining: number; cap: number; free_base: number; refills_used: number }>(pricing.events.map((e: any) => [e.event_id, e.usage]));
  for (const event of EVENT_IDS) {
    const u = usage.get(event)!;
    const packed = [...pack.always_free, ...pack.free_allowances].find((a: any) => a.event_id === event);
    assert.deepEqual([packed.used_today, packed.refills_today, packed.remaining_today], [u.used, u.refills, u.remaining], `zero_mc_pack ${event}`);
    assert.equal(cost.events.find((p: any) => p.event_id === event).free_left, u.remaining, `cost_model ${event}`);
    const granted = reciprocity.refills.filter((r: any) => r.events.includes(event)).reduce((s: number, r: any) => s + r.grants_today, 0);
    assert.equal(granted, u.refills, `get_reciprocity grants of ${event}`);
    assert.equal(u.used + u.remaining, u.cap, `${event}: used + remaining = cap`);
  }
  assert.equal(pack.free_units_today, [...usage.values()].reduce((s, u) => s + u.remaining, 0));
  return usage;
}

test(`every surface reads the same meters: exonomics is the sum of each caller's own figures (${engine})`, async () => {
  const a = await callerAt('198.51.100.1'); // uses network_sense ten times, no refills
  const b = await callerAt('198.51.100.2'); // earns refills it never uses, one kernel run
  const c = await callerAt('198.51.100.3'); // spends its free units, then refills
  const idle = await callerAt('198.51.100.4');

  for (let i = 0; i < 10; i++) await a.ok('network_sense', {});

  for (const capability of ['pdf extraction', 'invoice parsing', 'currency rates']) {
    assert.equal((await b.ok('leave_trace', { capability, kind: 'demand', body: `Looking for ${capability} that works offline.` })).refill.granted, true);
  }
  await b.ok('improve_kernel', { agent_name: 'bee', goals });
  assert.equal((await b.ok('deposit_outcome', { ok: true, quality: 0.8, body, from: 'improve_kernel' })).refill.granted, true);

  for (let i = 0; i < 3; i++) await c.ok('improve_kernel', { agent_name: 'sea', goals });
  assert.equal((await c.fail('improve_kernel', { agent_name: 'sea', goals })).code, 'quota_exhausted');
  assert.equal((await c.ok('deposit_outcome', { ok: true, quality: 0.6, body, from: 'improve_kernel' })).refill.granted, true);
  const lastKernel = await c.ok('improve_kernel', { agent_name: 'sea', goals });
  for (let i = 0; i < 5; i++) await c.ok(TEST_TOOL, {});
  assert.equal((await c.ok('leave_trace', { capability: 'pdf extraction', kind: 'attraction', body: 'The second pdf tool handled scanned pages.' })).refill.granted, true);
  const lastMatch = await c.ok(TEST_TOOL, {});

  // The values worked out by hand: refills a caller never used are granted, not used.
  const x = await idle.ok('get_exonomics', { days: 1 });
  const by = (event: string) => x.events.find((e: any) => e.event_id === event);
  const pick = (e: any) => [e.used, e.free_base, e.refilled, e.refills_used];
  assert.deepEqual(pick(by('network_sense')), [10, 10, 4, 0], 'a used 10 free units; b and c were granted 4 refills and used none');
  assert.deepEqual(pick(by('improve_kernel')), [5, 4, 2, 1], "b 1 free; c 3 free + 1 refilled; b's refill unused");
  assert.deepEqual(pick(by('mesh_match')), [6, 5, 4, 1], "c 5 free + 1 refilled; b's 3 refills unused");
  assert.deepEqual(pick(by('run_loop_tick')), [0, 0, 2, 0]);
  assert.equal(x.totals.refills_used, 2);

  const days = new Map<string, Awaited<ReturnType<typeof perCaller>>>();
  for (const [name, who] of [['a', a], ['b', b], ['c', c], ['idle', idle]] as const) days.set(name, await perCaller(who));
  assert.deepEqual(days.get('a')!.get('network_sense'), { used: 10, refills: 0, paid: 0, remaining: 0, cap: 10, free_base: 10, refills_used: 0 });
  assert.deepEqual(days.get('b')!.get('network_sense'), { used: 0, refills: 3, paid: 0, remaining: 13, cap: 13, free_base: 0, refills_used: 0 });

  // The meter on a metered result is the caller's own figure too.
  for (const [meter, event] of [[lastKernel.meter, 'improve_kernel'], [lastMatch.meter, 'mesh_match']] as const) {
    const u = days.get('c')!.get(event)!;
    assert.deepEqual([meter.used_today, meter.refills_today, meter.remaining, meter.paid_today], [u.used, u.refills, u.remaining, u.paid], `meter of ${event}`);
  }

  // The network's figures are the callers' figures summed, for every event.
  const fields = ['used', 'free_base', 'refilled', 'refills_used', 'paid'] as const;
  const fromCallers = { used: 'used', free_base: 'free_base', refilled: 'refills', refills_used: 'refills_used', paid: 'paid' } as const;
  for (const event of EVENT_IDS) {
    const network = by(event) ?? { used: 0, free_base: 0, refilled: 0, refills_used: 0, paid: 0 };
    const summed = Object.fromEntries(fields.map((f) => [f, [...days.values()].reduce((s, d) => s + d.get(event)![fromCallers[f]], 0)]));
    assert.deepEqual(Object.fromEntries(fields.map((f) => [f, network[f]])), summed, `get_exonomics ${event} against the callers' own list_event_pricing`);
    const users = [...days.values()].filter((d) => d.get(event)!.used + d.get(event)!.paid > 0).length;
    assert.equal(x.days[0].events.find((e: any) => e.event_id === event)?.callers ?? 0, users, `callers of ${event}`);
  }
});

test(`an always-free event past its daily cap: free, capped, back at the reset, nothing to pay (${engine})`, async () => {
  const x402 = await startApp({ clock, env: { TRUST_PROXY: '127.0.0.1', X402_ENABLED: '1', X402_FACILITATOR_URL: 'http://127.0.0.1:9', X402_PAY_TO: '0x0000000000000000000000000000000000000001' } });
  const paying = await connect(x402, { base: await x402.listen(), headers: { 'x-forwarded-for': '198.51.100.22' } });
  try {
    for (const [label, who] of [
      ['x402 off', await callerAt('198.51.100.21')],
      ['x402 on', paying],
    ] as const) {
      for (let i = 0; i < 10; i++) await who.ok('network_sense', {});
      for (const args of [{}, { payment_proof: 'a payment the caller offers anyway' }]) {
        const e = await who.fail('network_sense', args);
        assert.equal(e.code, 'daily_cap_reached', `${label}: ${e.message}`);
        assert.match(e.message, /network_sense is always free and never charged: its daily cap of 10 calls is reached for today/, label);
        assert.match(e.message, new RegExp(`resets at 2026-11-02T00:00:00.000Z \\(in ${TO_RESET} s\\)`), label);
        assert.match(e.message, /leave_trace adds a call today/, label);
        assert.doesNotMatch(e.message, /used up|x402|price|cents|\$/, `${label}: nothing reads as a paid quota`);
        assert.deepEqual([e.details.always_free, e.details.payable, e.details.daily_cap, e.details.used_today], [true, false, 10, 10], label);
        assert.deepEqual([e.details.resets_at, e.details.retry_after_s], ['2026-11-02T00:00:00.000Z', TO_RESET], label);
        assert.equal(e.details.accepts, undefined, `${label}: no payment offered`);
      }
      const pricing = await who.ok('list_event_pricing', {});
      const sense = pricing.events.find((e: any) => e.event_id === 'network_sense');
      assert.deepEqual([sense.always_free, sense.daily_cap, sense.usage.cap, sense.usage.remaining], [true, 10, 10, 0], `${label}: pricing shows the cap`);
      assert.equal(sense.x402_payable, false, label);
      // A refill raises today's cap by one, and the message counts it.
      await who.ok('leave_trace', { capability: 'pdf extraction', kind: 'demand', body: 'Still looking for a pdf tool that keeps tables.' });
      assert.equal((await who.ok('network_sense', {})).meter.remaining, 0);
      assert.match((await who.fail('network_sense', {})).message, /daily cap of 11 calls \(10 a day \+ 1 refilled\) is reached/);
      const after = (await who.ok('list_event_pricing', {})).events.find((e: any) => e.event_id === 'network_sense');
      assert.deepEqual([after.usage.used, after.usage.cap, after.usage.remaining, after.usage.paid], [11, 11, 0, 0], `${label}: nothing was paid`);
    }
  } finally {
    await paying.close();
    await x402.close();
  }
});
