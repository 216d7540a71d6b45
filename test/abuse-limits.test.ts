// Abuse limits through the real doors: every JSON-RPC message counts as one request of its kind
// (MCP batches and A2A alike), batches are bounded in messages and in answer bytes, a host gets at
// most PUBLISH_HOST_PER_DAY new listings from strangers and PROBE_HOST_PER_HOUR outbound requests
// (a counting loopback peer checks it, on a clock the test moves), and an example's placeholder
// text is never taken as real.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { engine, getJson, postJson, recordingScheduler, startApp, type TestApp } from './helpers/app.ts';
import { connect } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { setListingState } from './helpers/state.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { ManualClock } from '../src/platform/clock.ts';

const apps: TestApp[] = [];
const peers: AgentPeer[] = [];
after(async () => {
  for (const app of apps) await app.close();
  for (const peer of peers) await peer.close();
});

async function open(env: Record<string, string>, options: Parameters<typeof startApp>[0] = {}): Promise<TestApp> {
  const app = await startApp({ ...options, env: { ...options.env, ...env } });
  apps.push(app);
  return app;
}

/** One POST of JSON-RPC to the MCP door: status, headers, parsed body and its size in bytes. */
async function rpc(app: TestApp, body: unknown, path = '/api/mcp') {
  const res = await app.http.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined, bytes: Buffer.byteLength(res.body) };
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

test(`a batch is as many requests as it has messages: 300 list_yourself with a write limit of 5 list at most 5 (${engine})`, async () => {
  const probes = recordingScheduler();
  const app = await open({ RATE_LIMIT_WRITE_PER_MIN: '5', RATE_LIMIT_READ_PER_MIN: '30' }, { probes });
  const publishes = Array.from({ length: 300 }, (_, i) => call(i + 1, 'list_yourself', { url: `https://batch-${i}.example.org/mcp` }));
  // All 300 in one POST: past MCP_BATCH_MAX (20), one -32600 and nothing run.
  const whole = await rpc(app, publishes);
  assert.equal(whole.status, 400);
  assert.equal(whole.body.error.code, -32600);
  assert.match(whole.body.error.message, /at most 20 messages \(this one has 300\); nothing was run/);
  assert.equal((await app.sql.selectFrom('listings').select('id').execute()).length, 0);
  // In batches of 20: the first 5 messages fit the minute; every other one answers -32029 on its own.
  const answers = [];
  for (let i = 0; i < 300; i += 20) {
    const res = await rpc(app, publishes.slice(i, i + 20));
    assert.equal(res.status, 200);
    answers.push(...res.body);
    if (i > 0) assert.ok(Number(res.headers['retry-after']) > 0, 'a batch with refused messages carries Retry-After');
  }
  const listed = answers.filter((a) => a.result && !a.result.isError);
  const refused = answers.filter((a) => a.error);
  assert.deepEqual([listed.length, refused.length], [5, 295]);
  for (const r of refused) {
    assert.equal(r.error.code, -32029);
    assert.match(r.error.message, /^rate_limited: the limit of 5 writes per minute/);
    assert.ok(r.error.data.retry_after_s > 0 && r.error.data.retry_after_s <= 60);
  }
  assert.deepEqual(answers.map((a) => a.id), publishes.map((p) => p.id), 'every message answered, in order');
  assert.equal((await app.sql.selectFrom('listings').select('id').execute()).length, 5);
  assert.equal(probes.woken.length, 5, 'only the listed are probed');
  // Reads count apart, one per message: 30 a minute, so a batch of 20 fits and the next fits 10.
  const reads = (from: number) => Array.from({ length: 20 }, (_, i) => call(from + i, 'search_active', { limit: 1 }));
  assert.ok((await rpc(app, reads(1000))).body.every((a: any) => a.result));
  const second = (await rpc(app, reads(2000))).body;
  assert.deepEqual([second.filter((a: any) => a.result).length, second.filter((a: any) => a.error?.code === -32029).length], [10, 10]);
  // One message alone past the limit: HTTP 429, Retry-After and the same JSON-RPC error.
  const alone = await rpc(app, call(9999, 'list_yourself', { url: 'https://alone.example.org/mcp' }));
  assert.equal(alone.status, 429);
  assert.ok(Number(alone.headers['retry-after']) > 0);
  assert.equal(alone.body.error.code, -32029);
  assert.equal(alone.body.id, 9999);
  // REST counts the same minute: the write limit is spent.
  const rest = await postJson(app, '/api/publish', { url: 'https://rest-after.example.org/mcp' });
  assert.deepEqual([rest.status, rest.body.error.code], [429, 'rate_limited']);
  assert.ok(Number(rest.headers['retry-after']) > 0);
});

test(`batches cannot amplify: 1,300 tools/list is one small -32600; once the answers reach MCP_BATCH_MAX_BYTES the rest do not run (${engine})`, async () => {
  const maxBytes = 500_000;
  const app = await open({ MCP_BATCH_MAX_BYTES: String(maxBytes) });
  const lists = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }));
  const flood = await rpc(app, lists(1300));
  assert.equal(flood.status, 400);
  assert.equal(flood.body.error.code, -32600);
  assert.ok(flood.bytes < 1024, `${flood.bytes} bytes`);
  // 20 tools/list: they run in order until the answers reach MCP_BATCH_MAX_BYTES; every answer of a
  // message that ran is delivered, and the messages after it say they did not run, in order.
  const batch = await rpc(app, lists(20));
  assert.equal(batch.status, 200);
  const answered = batch.body.filter((a: any) => a.result).length;
  const sizes = batch.body.map((a: any) => Buffer.byteLength(JSON.stringify(a)) + 1);
  const before = (k: number) => 2 + sizes.slice(0, k).reduce((s: number, n: number) => s + n, 0);
  assert.ok(answered > 0 && answered < 20, `${answered} answered`);
  assert.ok(before(answered - 1) < maxBytes && before(answered) >= maxBytes, `the last message ran while the answers were under ${maxBytes} bytes, and took them past it`);
  for (const a of batch.body.slice(answered)) {
    assert.equal(a.error.code, -32028);
    assert.deepEqual(a.error.data, { max_bytes: maxBytes, ran: false });
    assert.match(a.error.message, /not run: the batch's answers reached MCP_BATCH_MAX_BYTES \(500000 bytes\)/);
  }
  assert.deepEqual(batch.body.map((a: any) => a.id), lists(20).map((m) => m.id));
});

test(`batches under MCP 2025-06-18 and later are refused whole over real HTTP: nothing in them runs (${engine})`, async () => {
  const app = await open({});
  const base = await app.listen();
  const publishes = (tag: string) => [1, 2].map((i) => call(i, 'list_yourself', { url: `https://${tag}-${i}.example.org/mcp` }));
  const post = async (body: unknown, headers: Record<string, string>) => {
    const res = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  for (const version of ['2025-06-18', '2025-11-25']) {
    const res = await post(publishes(`v${version}`), { 'mcp-protocol-version': version });
    assert.equal(res.status, 400, version);
    assert.equal(res.body.error.code, -32600);
    assert.match(res.body.error.message, new RegExp(`protocol ${version} does not allow batches`));
  }
  // The 2026 envelope (_meta with the protocol version in each request) is refused in a batch too.
  const modern = publishes('modern').map((m) => ({ ...m, params: { ...m.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }));
  const res = await post(modern, { 'mcp-protocol-version': '2026-07-28' });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, -32600);
  assert.equal((await app.sql.selectFrom('listings').select('id').execute()).length, 0, 'nothing in a refused batch ran');
  // A 2025-03-26 client's batch runs.
  const legacy = await post(publishes('legacy'), { 'mcp-protocol-version': '2025-03-26' });
  assert.equal(legacy.status, 200);
  assert.equal((await app.sql.selectFrom('listings').select('id').execute()).length, 2);
});

test(`A2A JSON-RPC counts each message of its kind: tasks/get is a read, message/send a write (${engine})`, async () => {
  const app = await open({ RATE_LIMIT_WRITE_PER_MIN: '2', RATE_LIMIT_READ_PER_MIN: '3' });
  const send = (id: number) => ({ jsonrpc: '2.0', id, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'find an echo server' }] } } });
  const a2a = (body: unknown) => rpc(app, body, '/api/a2a');
  assert.equal((await a2a(send(1))).status, 200);
  assert.equal((await a2a(send(2))).status, 200);
  const third = await a2a(send(3));
  assert.equal(third.status, 429);
  assert.equal(third.body.error.code, -32029);
  assert.equal(third.body.id, 3);
  assert.ok(Number(third.headers['retry-after']) > 0);
  // Reads have their own minute.
  for (let i = 0; i < 3; i++) assert.equal((await a2a({ jsonrpc: '2.0', id: 10 + i, method: 'tasks/get', params: { id: 'task-unknown' } })).status, 200);
  assert.equal((await a2a({ jsonrpc: '2.0', id: 20, method: 'tasks/get', params: { id: 'task-unknown' } })).status, 429);
});

test(`/v0.1 answers its rate limit in the registry API's own error body, with Retry-After (${engine})`, async () => {
  const app = await open({ RATE_LIMIT_READ_PER_MIN: '1' });
  assert.equal((await getJson(app, '/v0.1/servers')).status, 200);
  const limited = await getJson(app, '/v0.1/servers');
  assert.equal(limited.status, 429);
  assert.deepEqual(Object.keys(limited.body), ['error']);
  assert.match(limited.body.error, /^rate limit of 1 reads per minute reached; retry in \d+ s$/);
  assert.ok(Number(limited.headers['retry-after']) > 0);
  assert.equal(limited.headers['ratelimit-limit'], '1');
  // Elsewhere, DESIGN.md's shape.
  const rest = await getJson(app, '/api/listings/active');
  assert.deepEqual([rest.status, rest.body.ok, rest.body.error.code], [429, false, 'rate_limited']);
  // The health routes an orchestrator polls are never limited.
  for (const path of ['/healthz', '/readyz', '/healthz', '/readyz']) assert.equal((await getJson(app, path)).status, 200, path);
});

test(`/openapi.json gives every operation but the health routes its 429, with Retry-After (${engine})`, async () => {
  const app = await open({});
  const doc = (await getJson(app, '/openapi.json')).body;
  let operations = 0;
  const health = ['/healthz', '/readyz'];
  for (const path of health) assert.equal(doc.paths[path].get.responses['429'], undefined, `${path} is never limited`);
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths).filter(([p]) => !health.includes(p))) {
    for (const [method, op] of Object.entries<any>(ops)) {
      operations++;
      const answer = op.responses['429'];
      assert.ok(answer, `${method.toUpperCase()} ${path} lists 429`);
      const resolved = answer.$ref ? doc.components.responses[answer.$ref.split('/').pop()] : answer;
      assert.ok(resolved.headers['Retry-After'], `${method.toUpperCase()} ${path}: its 429 says Retry-After`);
      if (path.startsWith('/v0.1/')) assert.deepEqual(resolved.content['application/json'].schema.required, ['error']);
    }
  }
  assert.ok(operations > 60, `${operations} operations`);
  assert.match(doc.components.responses.RateLimited.description, /host_budget \(PUBLISH_HOST_PER_DAY/);
});

test(`60 paths of one host at once: 20 listed, 40 refused 429 host_budget; its owner and claims are not limited (${engine})`, async () => {
  const clock = new ManualClock('2026-11-02T10:00:00.000Z');
  const app = await open({ PUBLISH_HOST_PER_DAY: '20' }, { clock });
  const results = await Promise.all(Array.from({ length: 60 }, (_, i) => postJson(app, '/api/publish', { url: `https://flood.example.org/agents/${i}/mcp` })));
  const refused = results.filter((r) => r.status === 429);
  assert.deepEqual([results.filter((r) => r.status === 200).length, refused.length], [20, 40]);
  for (const r of refused) {
    assert.equal(r.body.error.code, 'host_budget');
    assert.equal(r.body.error.field, 'url');
    assert.match(r.body.error.message, /^example\.org has had its 20 new listings today/);
    assert.equal(r.headers['retry-after'], String(14 * 3600), 'until the next UTC day');
    assert.equal(typeof r.body.request_id, 'string');
  }
  assert.equal((await app.sql.selectFrom('listings').select('id').where('url', 'like', 'https://flood.example.org/%').execute()).length, 20);
  // Another host, and a URL already listed, spend nothing of it.
  assert.equal((await postJson(app, '/api/publish', { url: 'https://other.example.net/mcp' })).status, 200);
  assert.equal((await postJson(app, '/api/publish', { url: 'https://flood.example.org/agents/0/mcp' })).status, 200);
  // The same refusal through MCP.
  const t = await connect(app);
  assert.equal((await t.fail('list_yourself', { url: 'https://flood.example.org/agents/mcp-door/mcp' })).code, 'host_budget');
  // A claim is never limited by it: the owner is not locked out of its own host.
  const claim = await t.ok('claim_listing', { url: 'https://flood.example.org/agents/mine/mcp' });
  assert.ok(claim.claim_id);
  // An owner of the domain publishes new paths of it with its owner token.
  const first = results.find((r) => r.status === 200)!.body.listing_id as string;
  const token = await ownListing(app, first);
  const owned = await postJson(app, '/api/publish', { url: 'https://flood.example.org/agents/owner-new/mcp' }, asOwner(token));
  assert.equal(owned.status, 200, JSON.stringify(owned.body));
  await t.close();
  // A new UTC day gives the host its 20 again.
  clock.set('2026-11-03T00:00:01.000Z');
  assert.equal((await postJson(app, '/api/publish', { url: 'https://flood.example.org/agents/next-day/mcp' })).status, 200);
});

for (const shared of ['the database', 'Redis'] as const) {
  test(`two instances share one host budget, counted in ${shared} (${engine})`, async () => {
    const env = {
      PUBLISH_HOST_PER_DAY: '5',
      ...(shared === 'Redis' ? { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `rollcall-test-${process.pid}-${randomUUID()}:` } : {}),
    };
    const a = await open(env);
    const b = await open(env, { joinStore: a.store });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => postJson(i % 2 ? a : b, '/api/publish', { url: `https://shared-budget.example.com/${i}/mcp` })));
    assert.deepEqual([results.filter((r) => r.status === 200).length, results.filter((r) => r.status === 429).length], [5, 7]);
    assert.equal((await a.sql.selectFrom('listings').select('id').execute()).length, 5);
  });
}

for (const [where, host] of [['on the event loop', '127.0.0.2'], ['on the probe thread', '127.0.0.3']] as const) {
  test(`a host sees at most PROBE_HOST_PER_HOUR requests an hour, probes ${where}; scheduled work waits without failing, callers get 429 host_budget (${engine})`, async () => {
    const peer = await startA2aAgent({ host });
    peers.push(peer);
    const hits = () => [...peer.hits.values()].reduce((a, b) => a + b, 0);
    const clock = new ManualClock('2026-11-04T08:05:00.000Z');
    const app = await open({ PROBE_HOST_PER_HOUR: '20', PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '1000', REPUBLISH_MIN_INTERVAL_S: '1' }, { clock, probing: true, probeThread: where === 'on the probe thread' });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await postJson(app, '/api/publish', { url: `${peer.baseUrl}/a${i}/agent-card.json` })).body.listing_id);
    await app.jobs.idle();
    // Public work may use 80% of the hour (16 requests); the rest stays for owners.
    const firstHour = hits();
    assert.ok(firstHour > 0 && firstHour <= 16, `${firstHour} requests in the first hour`);
    const lanes = await app.sql.selectFrom('listings').select(['id', 'lane', 'lane_reason']).where('id', 'in', ids).execute();
    const waiting = lanes.filter((l) => l.lane_reason === 'host_budget');
    assert.ok(waiting.length > 0, 'some probes wait for the next hour');
    assert.ok(lanes.every((l) => l.lane !== 'failed'), 'waiting is not failing');
    for (const id of waiting.map((w) => w.id)) {
      const job = await app.sql.selectFrom('jobs').select(['due_at', 'attempts']).where('id', '=', `probe:${id}`).executeTakeFirstOrThrow();
      assert.equal(job.due_at, '2026-11-04T09:00:00.000Z');
    }
    // A caller waiting on an answer gets 429 host_budget with Retry-After, and nothing is sent.
    const score = await getJson(app, `/api/score?url=${encodeURIComponent(`${peer.baseUrl}/scored/agent-card.json`)}`);
    assert.deepEqual([score.status, score.body.error.code, score.headers['retry-after']], [429, 'host_budget', String(55 * 60)]);
    const t = await connect(app);
    assert.equal((await t.fail('check_liveness', { listing_id: ids[0] })).code, 'host_budget');
    assert.equal(hits(), firstHour);
    // A claim's verification is the claimant's work, paid from its own allowance and never from the
    // host's public share: it reads the places even now, and each once in 30 seconds, whoever asks.
    const claim = await t.ok('claim_listing', { listing_id: ids[1] });
    const verify = await t.fail('verify_claim', { claim_id: claim.claim_id });
    assert.deepEqual([verify.code, verify.field], ['proof_not_found', 'claim_id']);
    const read = hits() - firstHour;
    assert.ok(read > 0, 'the places were read');
    for (let i = 0; i < 5; i++) assert.equal((await t.fail('verify_claim', { claim_id: claim.claim_id })).code, 'proof_not_found');
    assert.equal(hits() - firstHour, read, 'read once in their 30 seconds');
    // The owner's own check uses the share strangers cannot.
    await setListingState(app, ids[0]!, { lane: 'active' }, clock.now().toISOString());
    const owner = await connect(app, { headers: asOwner(await ownListing(app, ids[0]!)), base: t.base });
    const checked = await owner.ok('check_liveness', { listing_id: ids[0] });
    assert.equal(checked.alive, true);
    assert.ok(hits() - read <= 20, `${hits() - read} requests in the hour, owners' included (and ${read} a claimant paid for)`);
    // The next hour: the waiting probes run, and the host again sees at most its budget.
    clock.set('2026-11-04T09:00:01.000Z');
    const before = hits();
    await app.jobs.tick();
    await app.jobs.idle();
    const secondHour = hits() - before;
    assert.ok(secondHour > 0 && secondHour <= 20, `${secondHour} requests in the second hour`);
    await owner.close();
    await t.close();
  });
}

test(`an example's placeholder is not real text: feedback, traces and goals carrying one are refused 400 placeholder_text (${engine})`, async () => {
  const app = await open({});
  const id = (await postJson(app, '/api/publish', { url: 'https://placeholder.example.org/mcp' })).body.listing_id as string;
  const at = app.clock.now().toISOString();
  await setListingState(app, id, { lane: 'active', live_since: at, checks_clean: 1, probe_ok: 1, probe_score: 90, probed_at: at }, at);
  const owner = await connect(app, { headers: asOwner(await ownListing(app, id)) });
  await owner.ok('take_demo', { listing_id: id });
  // The body an earlier take_demo suggested, sent unchanged as an LLM agent might.
  const template = '<one honest sentence about the demo: what worked, what did not>';
  for (const tool of ['leave_feedback', 'complete_founding_path']) {
    const refused = await owner.fail(tool, { listing_id: id, agent_name: 'Placeholder Bot', rating: 5, body: template });
    assert.equal(refused.code, 'placeholder_text', tool);
    assert.equal(refused.field, 'body');
    assert.equal(refused.details.placeholder, template);
    assert.match(refused.message, /replace it with one sentence of your own/);
  }
  // A sentence with a slot left in it is refused too; over REST as well.
  const rest = await postJson(app, '/api/products/feedback', { listing_id: id, rating: 5, body: 'The demo was fine but <what did not work> needs a fix.' });
  assert.deepEqual([rest.status, rest.body.error.code], [400, 'placeholder_text']);
  assert.equal((await app.sql.selectFrom('feedback_items').select('id').execute()).length, 0, 'nothing recorded');
  assert.equal((await app.sql.selectFrom('founding_seats').select('listing_id').execute()).length, 0, 'no seat');
  assert.ok(!JSON.stringify((await getJson(app, '/api/feed')).body).includes('left feedback'), 'nothing in the public feed');
  assert.equal((await owner.fail('leave_trace', { kind: 'attraction', listing_id: id, body: '<what worked>' })).code, 'placeholder_text');
  assert.equal((await owner.fail('improve_kernel', { agent_name: 'Placeholder Bot', goals: '<what your agent does>' })).code, 'placeholder_text');
  // What Rollcall suggests next leaves those fields to the caller and says so.
  const deal = await owner.ok('get_founding_deal', { listing_id: id });
  assert.deepEqual([deal.next_step.tool, deal.next_step.needs], ['complete_founding_path', ['rating', 'body', 'owner_token']]);
  assert.ok(!('body' in deal.next_step.args) && !('rating' in deal.next_step.args));
  // A real sentence is taken.
  const real = await owner.ok('leave_feedback', { listing_id: id, agent_name: 'Placeholder Bot', rating: 4, body: 'The demo found two partners for the tools my server lacks.' });
  assert.equal(real.founding.outcome, 'seat');
  await owner.close();
});
