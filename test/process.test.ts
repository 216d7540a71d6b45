// The real service process, as `npm start` runs it: starts, serves, and shuts down on SIGTERM.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { freshStore, type TestStore } from './helpers/app.ts';
import { freePort } from './peers/mcp-servers.ts';
import { serveUntilListening } from './helpers/serve-process.ts';

const stores: TestStore[] = [];
after(async () => {
  for (const s of stores) await s.drop();
});

async function store() {
  const s = await freshStore();
  await s.db.close(); // the child process opens its own connection
  stores.push(s);
  return s;
}

const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });

test('serve: listens, answers, serves /metrics on its own port only, and exits 0 on SIGTERM after finishing', async (t) => {
  const s = await store();
  const metricsPort = await freePort();
  const { child, address, out } = await serveUntilListening(t, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    env: { ...process.env, ...s.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', METRICS_PORT: String(metricsPort) },
  });
  const health = await fetch(`${address}/healthz`);
  assert.equal(health.status, 200);
  // /metrics: on METRICS_HOST:METRICS_PORT, not on the public port.
  assert.equal((await fetch(`${address}/metrics`)).status, 404);
  const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  assert.equal(metrics.status, 200);
  assert.match(await metrics.text(), /rollcall_http_requests_total\{route="\/healthz",status="2xx"\} 1/);
  assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/api/listings/active`)).status, 404, 'only /metrics there');
  assert.match(out(), /"metrics":"http:\/\/127\.0\.0\.1:\d+\/metrics"/);
  const publish = await fetch(`${address}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/mcp' }) });
  // Without PROBE_ALLOW_PRIVATE a loopback URL is refused at publish: no listing, no traffic, a clear reason.
  assert.equal(publish.status, 400);
  const refused = await publish.json();
  assert.equal(refused.error.code, 'url_not_allowed');
  assert.match(refused.error.message, /PROBE_ALLOW_PRIVATE=1/);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(out(), /shutting down/);
});

/** Holds a port on 127.0.0.1 (resolves with a closer); a port something else already holds is taken just the same. */
function holdPort(port: number): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(async () => {}) : reject(err)));
    server.listen(port, '127.0.0.1', () => resolve(() => new Promise((done) => server.close(() => done()))));
  });
}

test('serve: with the default metrics port taken it warns and serves without /metrics; a chosen port taken stops it', async (t) => {
  const s = await store();
  const release = await holdPort(9464);
  t.after(release);
  const env: NodeJS.ProcessEnv = { ...process.env, ...s.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  delete env.METRICS_PORT;
  delete env.METRICS_HOST;
  const { child, address, out } = await serveUntilListening(t, ['--import', 'tsx', 'src/main.ts', 'serve'], { env });
  assert.equal((await fetch(`${address}/healthz`)).status, 200, 'the second instance serves');
  assert.match(out(), /\/metrics is off: the default 127\.0\.0\.1:9464 is already in use/);
  assert.match(out(), /"metrics":"off \(default port taken\)"/);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);

  const chosen = cli(['serve'], { ...s.env, PORT: '0', HOST: '127.0.0.1', METRICS_PORT: '9464' });
  assert.equal(chosen.status, 1, chosen.stderr);
  assert.match(chosen.stderr, /METRICS_PORT: 127\.0\.0\.1:9464 is already in use; choose a free port, or 0/);
});

test('migrate: brings the schema up to date, then says it is', () => {
  return store().then((s) => {
    const first = cli(['migrate'], s.env);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /applied: 0001_listings_and_changes, 0002_probe_details/);
    const second = cli(['migrate'], s.env);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /schema is up to date/);
  });
});

test('bad configuration and unknown commands fail with a clear message', () => {
  const badPort = cli(['migrate'], { PORT: 'eighty' });
  assert.equal(badPort.status, 1);
  assert.match(badPort.stderr, /invalid configuration: PORT/);
  const badDb = cli(['migrate'], { DATABASE_URL: 'mysql://x' });
  assert.equal(badDb.status, 1);
  assert.match(badDb.stderr, /DATABASE_URL must start with postgres/);
  const unknown = cli(['frobnicate'], {});
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command: frobnicate/);
});

test('serve refuses to start on a count that is not a whole number, naming the variable', () => {
  const r = cli(['serve'], { PROBE_PER_HOST: '0.5', PORT: '0', METRICS_PORT: '0' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /invalid configuration: PROBE_PER_HOST: must be a whole number/);
});
