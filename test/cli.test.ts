// The `rollcall` command line as an operator runs it: the real bin (bin/rollcall.mjs, package.json
// "bin") in its own process, on a fresh store of this run's engine (RC_TEST_ENGINE), against real
// MCP servers and A2A agents on loopback. Each command's help, usage errors (exit 2), failures
// (exit 1), --json. An agent listed by its origin: test/cli-agents.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { freshStore, startApp, engine, type TestStore } from './helpers/app.ts';
import { freePort, startModernMcp, type Peer } from './peers/mcp-servers.ts';
import { COMMANDS } from '../src/cli/commands.ts';
import { serveUntilListening } from './helpers/serve-process.ts';
import { BIN, doc, root, runBin } from './helpers/rollcall-bin.ts';

let store: TestStore;
let mcp: Peer;

before(async () => {
  store = await freshStore();
  await store.db.close(); // the commands open their own connections
  mcp = await startModernMcp();
});
after(async () => {
  await mcp.close();
  await store.drop();
});

/** Runs the bin on this file's store. */
const rollcall = (args: string[], env: Record<string, string | undefined> = {}) => runBin(store, args, env);

const LOCAL = { PROBE_ALLOW_PRIVATE: '1' };

test('the bin is package.json "bin" and executable', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.equal(pkg.bin.rollcall, 'bin/rollcall.mjs');
  assert.ok(fs.statSync(BIN).mode & 0o111, 'executable');
  assert.match(fs.readFileSync(BIN, 'utf8'), /^#!\/usr\/bin\/env node\n/);
});

test('--help: the command list, and each command its usage, options and exit codes', async () => {
  const top = await rollcall(['--help']);
  assert.equal(top.code, 0);
  for (const c of COMMANDS) assert.match(top.out, new RegExp(`^  ${c.name} +\\S`, 'm'), c.name);
  assert.match(top.out, /rotate-key +the same as keys rotate/);
  assert.match(top.out, /0 ok, 1 the thing failed .*, 2 usage error/);
  const runs = await Promise.all(COMMANDS.map((c) => rollcall([c.name, '--help'])));
  runs.forEach((r, i) => {
    const name = COMMANDS[i]!.name;
    assert.equal(r.code, 0, `${name}: ${r.err}`);
    assert.ok(r.out.startsWith(`usage: rollcall ${name}`), `${name}: ${r.out.slice(0, 60)}`);
    assert.match(r.out, /Exit codes: 0/, name);
    assert.equal(r.err, '', name);
  });
  const viaHelp = await rollcall(['help', 'list']);
  assert.equal(viaHelp.out, runs[COMMANDS.findIndex((c) => c.name === 'list')]!.out);
  const version = await rollcall(['--version']);
  assert.match(version.out, /^rollcall \d+\.\d+\.\d+\n$/);
  const alias = await rollcall(['rotate-key', '--help']);
  assert.ok(alias.out.startsWith('usage: rollcall keys rotate'));
});

test('migrate applies the schema once, then says it is up to date; --json lists what it applied', async () => {
  const first = await rollcall(['migrate', '--json']);
  assert.equal(first.code, 0, first.err);
  const applied = doc(first);
  assert.equal(applied.ok, true);
  assert.equal(applied.engine, engine);
  assert.ok(applied.applied.includes('0001_listings_and_changes'));
  const again = await rollcall(['migrate']);
  assert.equal(again.code, 0, again.err);
  assert.equal(again.out, 'schema is up to date\n');
  assert.deepEqual(doc(await rollcall(['migrate', '--json'])).applied, []);
});

test('usage errors exit 2 with the reason on stderr (and a JSON error with --json)', async () => {
  const cases: [string[], RegExp][] = [
    [['frobnicate'], /unknown command: frobnicate/],
    [['stats', '--frob'], /Unknown option '--frob'/],
    [['stats', 'extra'], /unexpected argument: extra/],
    [['probe'], /missing argument \(usage: rollcall probe <url>/],
    [['probe', 'not a url'], /url is not an absolute URL/],
    [['list', 'ftp://example.org/card.json'], /url must use http or https/],
    [['list', 'https://example.org/mcp', '--timeout', '0'], /--timeout must be a whole number/],
    [['list', 'https://example.org/mcp', '--server', 'localhost:8080/x?y'], /--server must be/],
    [['search', 'weather', '--kind', 'robot'], /kind/],
    [['search', 'weather', '--limit'], /argument missing/],
    [['keys', 'spin'], /unknown keys command: spin/],
    [['serve', '--port', 'eighty'], /--port must be a port number/],
  ];
  const runs = await Promise.all(cases.map(([args]) => rollcall(args, LOCAL)));
  runs.forEach((r, i) => {
    const [args, message] = cases[i]!;
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message, args.join(' '));
    assert.equal(r.out, '', `${args.join(' ')}: nothing on stdout without --json`);
  });
  const json = await rollcall(['probe', 'not a url', '--json']);
  assert.equal(json.code, 2);
  assert.deepEqual(doc(json), { ok: false, error: { code: 'invalid_url', message: 'url is not an absolute URL', field: 'url' } });
  const unknown = await rollcall(['frobnicate', '--json']);
  assert.equal(doc(unknown).error.code, 'usage');
});

test('probe: a live loopback MCP server prints its checks and score and exits 0; --json is the probe_clean answer', async () => {
  const text = await rollcall(['probe', mcp.url], LOCAL);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /result {5}would go Live/);
  assert.match(text.out, /handshake {2}ok \(2026-07-28\)/);
  assert.match(text.out, /pass {2}url_allowed/);
  assert.match(text.out, /score {6}\d+\/100/);
  assert.match(text.out, /capabilities \(2\): current_weather, forecast/);

  const json = await rollcall(['probe', mcp.url, '--json'], LOCAL);
  assert.equal(json.code, 0, json.err);
  const report = doc(json);
  assert.equal(report.ok, true);
  assert.equal(report.url, mcp.url);
  assert.equal(report.kind, 'mcp');
  assert.equal(report.live_ready, true);
  assert.equal(report.checks_clean, true);
  assert.equal(report.probe.handshake, 'ok');
  assert.ok(report.score > 0 && report.score <= 100);
  assert.deepEqual(report.capabilities, ['current_weather', 'forecast']);
  assert.ok(report.checks.every((c: { pass: boolean }) => c.pass));
});

test('probe: a refused URL fails fast with exit 1; a loopback URL without PROBE_ALLOW_PRIVATE says how to allow it', async () => {
  const closed = `http://127.0.0.1:${await freePort()}/mcp`;
  const refused = await rollcall(['probe', closed, '--json'], LOCAL);
  assert.equal(refused.code, 1, refused.err);
  const report = doc(refused);
  assert.equal(report.live_ready, false);
  assert.equal(report.probe.handshake, 'failed');
  assert.ok(refused.ms < 15_000, `took ${refused.ms} ms`);

  const blocked = await rollcall(['probe', mcp.url]);
  assert.equal(blocked.code, 1);
  assert.match(blocked.out, /not Live: blocked_address/);
  assert.match(blocked.out, /hint {7}.*PROBE_ALLOW_PRIVATE=1/);
});

let listingId: string;

test('list: writes the listing on the configured database, runs its probe here, and exits 0 once it is Live', async () => {
  const listed = await rollcall(['list', mcp.url, '--json', '--email', 'ops@example.org'], LOCAL);
  assert.equal(listed.code, 0, listed.err);
  const answer = doc(listed);
  assert.equal(answer.ok, true);
  assert.equal(answer.outcome, 'listed');
  assert.equal(answer.via, 'local');
  assert.equal(answer.live, true);
  assert.equal(answer.lane, 'active');
  assert.equal(answer.name, 'weather-now');
  assert.equal(answer.probe.handshake, 'ok');
  assert.equal(answer.contact_email, undefined, 'never shown');
  assert.match(answer.badges.markdown, /badge\/live\?id=/);
  assert.ok(answer.waited_ms < 30_000);
  listingId = answer.listing_id;

  // Again: the same listing, not probed again so soon; still Live, exit 0; human text.
  const again = await rollcall(['list', mcp.url], LOCAL);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, new RegExp(`^already listed ${listingId} via this process \\(re-probe not due yet\\)$`, 'm'));
  assert.match(again.out, /^ {2}lane {5}active$/m);
  assert.match(again.out, /^ {2}probe {4}ok, handshake ok, score \d+$/m);
  assert.match(again.out, /^ {2}badge {4}\[!\[Live on Rollcall\]/m);
});

test('list: a server that refuses connections ends failed with exit 1; --no-wait returns at once with exit 0', async () => {
  const closed = `http://127.0.0.1:${await freePort()}/mcp`;
  const failed = await rollcall(['list', closed, '--json'], LOCAL);
  assert.equal(failed.code, 1, failed.err);
  const answer = doc(failed);
  assert.equal(answer.live, false);
  assert.equal(answer.lane, 'failed');
  assert.ok(answer.lane_reason);

  const later = await rollcall(['list', `http://127.0.0.1:${await freePort()}/other`, '--no-wait', '--json'], LOCAL);
  assert.equal(later.code, 0, later.err);
  assert.equal(doc(later).lane, 'queued');
  assert.equal(doc(later).reprobe.queued, true);

  // Without PROBE_ALLOW_PRIVATE a loopback URL is refused at publish: the thing failed (exit 1).
  const refused = await rollcall(['list', mcp.url, '--json']);
  assert.equal(refused.code, 1);
  assert.equal(doc(refused).error.code, 'url_not_allowed');
  assert.match(refused.err, /PROBE_ALLOW_PRIVATE=1/);
});

test('list --server: publishes to a running Rollcall over HTTP and polls its status until Live', async () => {
  const server = await startApp({ probing: true, env: LOCAL });
  try {
    const base = await server.listen();
    const listed = await rollcall(['list', mcp.url, '--server', `${base}/`, '--json']);
    assert.equal(listed.code, 0, listed.err);
    const answer = doc(listed);
    assert.equal(answer.via, 'server');
    assert.equal(answer.outcome, 'listed');
    assert.equal(answer.lane, 'active');
    assert.ok(answer.status_url.startsWith(server.config.publicBaseUrl));
    const row = await server.sql.selectFrom('listings').select(['id', 'source']).where('id', '=', answer.listing_id).executeTakeFirst();
    assert.deepEqual(row, { id: answer.listing_id, source: 'rollcall-cli' }, 'written by the server, not here');

    // The server's own refusal is relayed with its code; a 400 about the input is a usage error.
    const bad = await rollcall(['list', 'http://', '--server', base, '--json']);
    assert.equal(bad.code, 2);
    assert.equal(doc(bad).error.code, 'invalid_url');
  } finally {
    await server.close();
  }
  const gone = await rollcall(['list', mcp.url, '--server', `http://127.0.0.1:${await freePort()}`, '--json']);
  assert.equal(gone.code, 1);
  assert.equal(doc(gone).error.code, 'server_unreachable');
});

test('search: the engine over the configured database finds the Live listing by what it does', async () => {
  const json = await rollcall(['search', 'weather', 'forecast', '--json']);
  assert.equal(json.code, 0, json.err);
  const answer = doc(json);
  assert.equal(answer.query, 'weather forecast');
  const hit = answer.hits.find((h: { listing_id?: string }) => h.listing_id === listingId);
  assert.ok(hit, JSON.stringify(answer.hits));
  assert.equal(hit.source, 'listing');

  const text = await rollcall(['search', 'weather', '--limit', '1']);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /^1 hit for "weather"$/m);
  assert.match(text.out, new RegExp(`^ {2}1\\. weather-now {2}\\(mcp, Live listing ${listingId}\\)`, 'm'));

  const agents = await rollcall(['search', 'weather', '--kind', 'agent', '--json']);
  assert.equal(agents.code, 0);
  assert.ok(doc(agents).hits.every((h: { kind: string }) => h.kind === 'agent'));
});

test('keys rotate (and rotate-key) add keys with an overlap; keys list shows which signs', async () => {
  const first = await rollcall(['keys', 'rotate', '--json']);
  assert.equal(first.code, 0, first.err);
  const one = doc(first);
  assert.equal(one.ok, true);
  assert.match(one.kid, /^[\w-]{43}$/);
  const second = await rollcall(['rotate-key']);
  assert.equal(second.code, 0, second.err);
  assert.match(second.out, /^new signing key [\w-]{43}: in the JWKS now, signing from /);
  assert.match(second.out, new RegExp(`previous key ${one.kid}: stays published until .* \\(7 days of overlap\\)`));

  const list = doc(await rollcall(['keys', 'list', '--json']));
  assert.equal(list.keys.length, 2);
  assert.deepEqual(
    list.keys.map((k: { signing: boolean; kid: string }) => [k.kid === one.kid, k.signing]),
    [
      [false, false],
      [true, true],
    ],
    'the new key waits 10 minutes; the first one signs meanwhile',
  );
  assert.ok(list.keys.every((k: Record<string, unknown>) => !('d' in k) && !('private_jwk' in k)));
  const text = await rollcall(['keys', 'list']);
  assert.match(text.out, new RegExp(`^\\* ${one.kid} .*\\(signing now\\)$`, 'm'));
});

test('stats --json counts what the commands above did', async () => {
  const run = await rollcall(['stats', '--json']);
  assert.equal(run.code, 0, run.err);
  const s = doc(run);
  assert.equal(s.ok, true);
  assert.equal(s.listings.total, 3);
  assert.equal(s.listings.live, 1);
  assert.deepEqual(s.listings.by_kind.mcp, { total: 3, queued: 1, probing: 0, active: 1, failed: 1, dormant: 0 });
  assert.equal(s.listings.by_kind.agent.total, 0);
  assert.equal(s.listings.probed, 2);
  assert.equal(s.listings.checks_clean, 1);
  assert.deepEqual(s.catalog, { servers: 0, versions: 0 });
  assert.equal(s.jobs.by_kind.probe.due, 1, 'the --no-wait listing waits for a server');
  assert.equal(s.jobs.running, 0);
  assert.equal(s.search.queries_today, 3, 'each search is logged, even when the command closes the database right after');
  assert.equal(s.signing_keys.published, 2);
  assert.ok(s.signing_keys.signing);

  const text = await rollcall(['stats']);
  assert.match(text.out, /^listings {6}3 total, 1 live$/m);
  assert.match(text.out, /^ {2}mcp {9}3 \(active 1, queued 1, probing 0, failed 1, dormant 0\)$/m);
  assert.match(text.out, /^signing keys {2}2 published, signing with /m);
});

test('serve through the bin: answers (badges included) and exits 0 on SIGTERM', async (t) => {
  const { child, address, out } = await serveUntilListening(t, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: root,
    // No metrics listener: its fixed port may be another process's on this machine.
    env: { ...process.env, DATABASE_URL: undefined, ...store.env, LOG_LEVEL: 'info', METRICS_PORT: '0' } as NodeJS.ProcessEnv,
  });
  const badge = await fetch(`${address}/badge/live?id=${listingId}`);
  assert.equal(badge.status, 200);
  assert.match(await badge.text(), /<title>Rollcall live: yes · score \d+<\/title>/);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(out(), /"signal":"SIGTERM".*shutting down/);
});
