// What one probe result and one publish of a new listing send to the database: every statement the
// driver sends (BEGIN and COMMIT included, db.sent), with the per-host budgets on and counted in
// the database, against real peers on loopback and through the REST door over real HTTP. On
// PostgreSQL each statement is a round trip, and the writes of a result go out in batches
// (platform/db/together.ts); SQLite has no data-modifying WITH, so there each part is a statement
// of its own (an in-process call, no round trip). The ceilings are what the code sends today: a
// change that sends more fails here.
import { test, before, after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, engine, type TestApp } from './helpers/app.ts';
import { startEverything, freePort, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { ProbeJob } from '../src/probe/job.ts';
import { PROBE_JOB, probeJobId } from '../src/probe/scheduler.ts';
import { claimDue, type Lease } from '../src/platform/jobs/store.ts';
import type { StatementTally } from '../src/platform/db/statement-count.ts';

/**
 * Statements (BEGIN and COMMIT included) and transactions: one probe result, one publish of a new
 * listing, and the claim of one probe job (which also counts its host's requests ahead).
 */
const CEILINGS = {
  postgres: { result: { statements: 10, transactions: 1 }, publish: { statements: 6, transactions: 1 }, claim: { statements: 6, transactions: 1 } },
  sqlite: { result: { statements: 22, transactions: 1 }, publish: { statements: 11, transactions: 1 }, claim: { statements: 8, transactions: 1 } },
}[engine];

let app: TestApp;
let base: string;
let everything: Peer;
let agent: AgentPeer;

before(async () => {
  [everything, agent] = await Promise.all([startEverything(), startA2aAgent({ shape: '1.0' })]);
  app = await startApp({
    env: {
      PROBE_ALLOW_PRIVATE: '1',
      PROBE_RATE_PER_MIN: '0',
      // The budgets on, counted in the database (no REDIS_URL), far above what the tests use.
      PROBE_HOST_PER_HOUR: '1000',
      PUBLISH_HOST_PER_DAY: '1000',
      // Nothing else sends statements meanwhile: no search poll, no usage flush.
      SEARCH_POLL_MS: '0',
      USAGE_FLUSH_S: '0',
    },
  });
  base = await app.listen();
  // What the first request and the first claim do once (the signing keys, the sweep) is not counted.
  await publish(`http://127.0.0.9:${new URL(everything.url).port}/mcp?warm=1`);
  await app.jobs.tick();
  await app.jobs.idle();
});
after(async () => {
  await app.close();
  await Promise.all([everything.close(), agent.close()]);
});

/** Another loopback host for each listing, as the budgets are per host. */
let hosts = 10;
const onHost = (url: string) => {
  const u = new URL(url);
  u.hostname = `127.0.0.${hosts++}`;
  return u.toString();
};

async function publish(url: string): Promise<string> {
  const res = await fetch(`${base}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
  const body = (await res.json()) as { listing_id: string; outcome: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.listing_id;
}

/** What `work` sent to the database (nothing else runs meanwhile). */
async function counted<T>(work: () => Promise<T>): Promise<{ value: T; sent: StatementTally }> {
  const mark = app.services.db.sent.mark();
  const value = await work();
  return { value, sent: app.services.db.sent.since(mark) };
}

/**
 * Claims the listing's probe job as the pool does (a fair claim; it marks the listing `probing` and
 * counts the host's requests ahead) and runs it: what the claim sent, and what the run sent (the
 * probe's requests beyond those taken ahead, and its result).
 */
async function probeResult(listingId: string): Promise<{ claim: StatementTally; result: StatementTally }> {
  const job = new ProbeJob(app.services, app.services.probe);
  // Only this job is due, so the pool's claim takes it.
  await app.sql.updateTable('jobs').set({ due_at: '2099-01-01T00:00:00.000Z' }).where('kind', '=', PROBE_JOB).execute();
  await app.sql.updateTable('jobs').set({ due_at: app.clock.now().toISOString() }).where('id', '=', probeJobId(listingId)).execute();
  const { value: leases, sent: claim } = await counted(() => claimDue(app.services.db, app.clock.now(), 60_000, 1, { kind: PROBE_JOB, groupCap: 2 }, job.claimed.bind(job)));
  const lease = (leases as Lease[])[0];
  assert.equal(lease?.subject, listingId);
  const { sent: result } = await counted(() => job.run(lease!, new AbortController().signal));
  return { claim, result };
}

const lane = async (id: string) => (await app.sql.selectFrom('listings').select(['lane', 'lane_reason']).where('id', '=', id).executeTakeFirstOrThrow()).lane;

function within(t: TestContext, sent: StatementTally, ceiling: StatementTally, what: string) {
  t.diagnostic(`${what}: ${sent.statements} statements, ${sent.transactions} transaction(s)`);
  assert.ok(sent.statements <= ceiling.statements, `${what}: ${sent.statements} statements, at most ${ceiling.statements} (${engine})`);
  assert.equal(sent.transactions, ceiling.transactions, `${what}: ${sent.transactions} transactions (${engine})`);
}

test(`a publish of a new listing through the REST door: at most ${CEILINGS.publish.statements} statements in one transaction, the host's budget included (${engine})`, async (t) => {
  const url = onHost(everything.url);
  const { value: id, sent } = await counted(() => publish(url));
  within(t, sent, CEILINGS.publish, 'publish');
  // Everything a new listing has was written: its row, its event, its trace, its job, the budget's count.
  assert.equal(await lane(id), 'queued');
  assert.ok(await app.sql.selectFrom('feed_events').select('seq').where('listing_id', '=', id).where('type', '=', 'listing.listed').executeTakeFirst());
  assert.ok(await app.sql.selectFrom('trace_deposits').select('id').where('subject_key', '=', `listing:${id}`).where('channel', '=', 'joined').executeTakeFirst());
  assert.ok(await app.sql.selectFrom('jobs').select('id').where('id', '=', probeJobId(id)).executeTakeFirst());
  const spent = await app.sql.selectFrom('budget_counters').select('n').where('key', '=', `publishes:${new URL(url).hostname}`).executeTakeFirstOrThrow();
  assert.equal(Number(spent.n), 1);
});

test(`one probe result, first and again, Live or failing: at most ${CEILINGS.result.statements} statements in one transaction; its claim at most ${CEILINGS.claim.statements}, the probe's requests counted in the host's budget (${engine})`, async (t) => {
  const url = onHost(everything.url);
  const id = await publish(url);
  const first = await probeResult(id);
  within(t, first.claim, CEILINGS.claim, 'the claim of one job');
  within(t, first.result, CEILINGS.result, 'first probe, Live');
  assert.equal(await lane(id), 'active');
  within(t, (await probeResult(id)).result, CEILINGS.result, 'a re-probe, Live');
  // The budget counts what the probes asked for, no more: what was taken ahead and not used went back.
  const requests = await app.sql.selectFrom('budget_counters').select('n').where('key', '=', `requests:${new URL(url).hostname}`).executeTakeFirstOrThrow();
  assert.ok(Number(requests.n) >= 4 && Number(requests.n) <= 16, `${requests.n} requests for two probes`);
  const history = await app.sql.selectFrom('probe_history').select('ok').where('listing_id', '=', id).execute();
  assert.deepEqual(history.map((h) => Number(h.ok)), [1, 1]);

  // A server that went away: the failure's history, danger mark and lane, in as few.
  const gone = onHost(`http://127.0.0.1:${await freePort()}/mcp`);
  const failing = await publish(gone);
  within(t, (await probeResult(failing)).result, CEILINGS.result, 'a failed probe');
  assert.equal(await lane(failing), 'failed');
});

test(`an A2A agent's probe result (its card, then its endpoint, another spelling): at most ${CEILINGS.result.statements} statements in one transaction (${engine})`, async (t) => {
  const id = await publish(agent.cardUrl);
  within(t, (await probeResult(id)).result, CEILINGS.result, 'an agent, Live');
  assert.equal(await lane(id), 'active');
  // The endpoint the probe reached is now one of the listing's spellings.
  const spellings = await app.sql.selectFrom('listing_aliases').select('key').where('listing_id', '=', id).execute();
  assert.ok(spellings.length >= 2, JSON.stringify(spellings));
});

test(`a slot that frees with nothing due costs the probe pool one read, not a claim's transaction (${engine})`, async (t) => {
  // Every probe job due later: the pool's last claim found less than it asked for.
  await app.sql.updateTable('jobs').set({ due_at: '2099-01-01T00:00:00.000Z' }).where('kind', '=', PROBE_JOB).execute();
  await app.jobs.tick();
  await app.jobs.idle();
  const { sent } = await counted(async () => {
    await app.jobs.tick();
    await app.jobs.idle();
  });
  t.diagnostic(`an idle tick: ${sent.statements} statements, ${sent.transactions} transaction(s)`);
  // One statement per job kind: the probe pool's read, and the other kinds' claims, each one statement.
  assert.deepEqual(sent, { statements: Object.keys(app.jobs.runningByKind()).length, transactions: 0 });
});
