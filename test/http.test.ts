import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { startApp, getJson, getMetrics, postJson, type TestApp } from './helpers/app.ts';
import { redactUrl } from '../src/platform/log.ts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { validate as validateOpenApi } from '@readme/openapi-parser';

const apps: TestApp[] = [];
const own = async (opts?: Parameters<typeof startApp>[0]) => {
  const a = await startApp(opts);
  apps.push(a);
  return a;
};
after(async () => {
  for (const a of apps) await a.close();
});

test('every response carries x-request-id; a sane incoming id is kept, a hostile one replaced', async () => {
  const app = await own();
  const generated = await getJson(app, '/healthz');
  assert.match(String(generated.headers['x-request-id']), /^req_/);
  const kept = await getJson(app, '/healthz', { 'x-request-id': 'trace-123' });
  assert.equal(kept.headers['x-request-id'], 'trace-123');
  const hostile = await getJson(app, '/api/listings/status?id=nope', { 'x-request-id': 'bad id\r\nx: y' });
  assert.match(String(hostile.headers['x-request-id']), /^req_/);
  assert.equal(hostile.body.request_id, hostile.headers['x-request-id']);
});

test('unknown routes are a 404 in the error shape', async () => {
  const app = await own();
  const res = await getJson(app, '/api/nothing-here');
  assert.equal(res.status, 404);
  assert.equal(res.body.ok, false);
  assert.equal(res.body.error.code, 'not_found');
});

test('/healthz says the process is up; /readyz says the database answers, and 503 when it does not', async () => {
  const app = await own();
  assert.deepEqual((await getJson(app, '/healthz')).body, { ok: true, version: '0.1.0' });
  const ready = await getJson(app, '/readyz');
  assert.equal(ready.status, 200);
  assert.equal(ready.body.database, process.env.RC_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite');
  await app.services.db.close();
  const down = await getJson(app, '/readyz');
  assert.equal(down.status, 503);
  assert.equal(down.body.error.code, 'database_unreachable');
});

test('/metrics, on its own listener, counts requests by route and status, and probes by outcome; the public port does not serve it', async () => {
  const app = await own({ probing: true });
  await getJson(app, '/api/listings/active');
  await getJson(app, '/api/listings/status?id=missing');
  await postJson(app, '/api/publish', { url: 'https://metrics.example.org/mcp' }); // unresolvable in tests: fails
  await app.jobs.idle();
  assert.equal((await app.http.inject({ method: 'GET', url: '/metrics' })).statusCode, 404, 'not on the public port');
  const res = await getMetrics(app);
  assert.equal(res.status, 200);
  assert.match(res.contentType, /text\/plain/);
  assert.match(res.body, /rollcall_http_requests_total\{route="\/api\/listings\/active",status="2xx"\} 1/);
  assert.match(res.body, /rollcall_http_requests_total\{route="\/api\/listings\/status",status="4xx"\} 1/);
  assert.match(res.body, /rollcall_probes_total\{kind="mcp",outcome="unreachable"\} 1/);
  assert.match(res.body, /rollcall_jobs_total\{kind="probe",result="done"\} 1/);
  assert.match(res.body, /rollcall_process_cpu_seconds_total/);
});

test('/openapi.json describes every REST route with its parameters', async () => {
  const app = await own();
  const doc = (await getJson(app, '/openapi.json')).body;
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '1.9.0');
  for (const p of ['/api/publish', '/api/listings/status', '/api/listings/active', '/api/talk', '/api/score', '/api/score/rubric', '/api/mcp', '/healthz', '/readyz']) assert.ok(doc.paths[p], p);
  assert.equal(doc.paths['/metrics'], undefined, '/metrics is not on the public port');
  assert.ok(doc.paths['/api/publish'].post.requestBody.content['application/json'].schema.properties.url);
  const params = doc.paths['/api/listings/active'].get.parameters.map((p: { name: string }) => p.name);
  assert.deepEqual(params.sort(), ['cursor', 'limit']);
});

test('/openapi.json is valid under two independent validators, operationIds unique', async () => {
  const app = await own();
  const doc = (await getJson(app, '/openapi.json')).body;
  const schemaCheck = await new Validator().validate(structuredClone(doc));
  assert.ok(schemaCheck.valid, JSON.stringify(schemaCheck.errors, null, 2));
  // @readme/openapi-parser also checks what the schema cannot: duplicate operationIds and parameters.
  const semantic = await validateOpenApi(structuredClone(doc));
  assert.equal(semantic.valid, true, JSON.stringify(semantic));
  const ids = Object.values<Record<string, { operationId?: string }>>(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId).filter(Boolean));
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual([doc.paths['/api/ard/search'].get.operationId, doc.paths['/api/ard/search'].post.operationId], ['ard_search', 'ard_search_post']);
});

test('per-address rate limits: writes and reads counted apart, 429 with Retry-After and RateLimit headers', async () => {
  const app = await own({ env: { RATE_LIMIT_WRITE_PER_MIN: '2', RATE_LIMIT_READ_PER_MIN: '3' } });
  assert.equal((await postJson(app, '/api/publish', { url: 'https://rl1.example.org/mcp' })).status, 200);
  assert.equal((await postJson(app, '/api/publish', { url: 'https://rl2.example.org/mcp' })).status, 200);
  const limited = await postJson(app, '/api/publish', { url: 'https://rl3.example.org/mcp' });
  assert.equal(limited.status, 429);
  assert.equal(limited.body.error.code, 'rate_limited');
  assert.ok(limited.headers['retry-after']);
  assert.equal(limited.headers['ratelimit-limit'], '2');
  assert.equal(typeof limited.body.request_id, 'string');
  assert.equal((await getJson(app, '/api/listings/active')).status, 200, 'reads have their own budget');
  assert.equal((await getJson(app, '/healthz')).status, 200);
  const stored = await app.sql.selectFrom('listings').select('url').execute();
  assert.deepEqual(stored.map((r) => r.url).sort(), ['https://rl1.example.org/mcp', 'https://rl2.example.org/mcp']);
});

test('with REDIS_URL, instances share one rate limit', async () => {
  const env = { RATE_LIMIT_WRITE_PER_MIN: '2', REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `rollcall-test-${process.pid}-${Date.now()}:` };
  const a = await own({ env });
  const b = await own({ env, joinStore: a.store });
  assert.equal((await postJson(a, '/api/publish', { url: 'https://shared-rl1.example.org/mcp' })).status, 200);
  assert.equal((await postJson(b, '/api/publish', { url: 'https://shared-rl2.example.org/mcp' })).status, 200);
  const third = await postJson(a, '/api/publish', { url: 'https://shared-rl3.example.org/mcp' });
  assert.equal(third.status, 429, 'the count lives in Redis, not in one instance');
});

test('an unreachable Redis does not take the service down: limits fall back to letting requests through', async () => {
  const app = await own({ env: { RATE_LIMIT_WRITE_PER_MIN: '2', REDIS_URL: 'redis://127.0.0.1:1' } });
  const started = Date.now();
  const res = await postJson(app, '/api/publish', { url: 'https://no-redis.example.org/mcp' });
  assert.equal(res.status, 200);
  assert.ok(Date.now() - started < 5000, 'no long stall');
});

test('logs never carry tokens: query secrets and authorization headers are redacted', async () => {
  assert.equal(redactUrl('/api/products/access?token=rc_secret&artifact=kernel'), '/api/products/access?token=[redacted]&artifact=kernel');
  assert.equal(redactUrl('/x?a=1&access_token=rc_abc'), '/x?a=1&access_token=[redacted]');
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const app = await own({ env: { LOG_LEVEL: 'info' }, logStream: sink });
  await getJson(app, '/api/talk?token=rc_supersecret&listing_id=nope', { authorization: 'Bearer rc_headersecret' });
  const text = lines.join('');
  assert.ok(text.includes('[redacted]'), text);
  assert.ok(!text.includes('rc_supersecret'));
  assert.ok(!text.includes('rc_headersecret'));
});
