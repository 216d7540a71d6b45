// The production build (scripts/build.mjs, what `npm ci` and `npm start` run): dist/ starts
// without tsx, serves REST, MCP (official SDK client) and A2A (A2A SDK client), its probe thread
// probes a real agent until it is Live, and it stops on SIGTERM. And every package the running
// code imports is a dependency, so `npm ci --omit=dev` installs all it needs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientFactory } from '@a2a-js/sdk/client';
import { SendMessageRequest, type Task } from '@a2a-js/sdk';
import { freshStore, engine, type TestStore } from './helpers/app.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { freePort } from './peers/mcp-servers.ts';
// @ts-expect-error: a plain ES module of the scripts, without types
import { isFresh } from '../scripts/dist-fresh.mjs';

const root = path.join(import.meta.dirname, '..');
const out = path.join(root, '.tmp', `build-${process.pid}-${randomUUID().slice(0, 8)}`);
let store: TestStore | undefined;
let agent: AgentPeer | undefined;
after(async () => {
  fs.rmSync(out, { recursive: true, force: true });
  await store?.drop();
  await agent?.close();
});

/** The packages a file imports at run time (type-only imports left out), by package name. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*import\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*export\s+(?!type\b)[^'"]*?\sfrom\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/\bimport\.meta\.resolve\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/\bcreateRequire\([^)]*\)\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(full);
    return /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

test('the bin runs the build only while no source and not the lockfile is newer than it', () => {
  // .tmp/ is ignored by git: a clean clone does not have it yet.
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const tree = fs.mkdtempSync(path.join(root, '.tmp', 'fresh-'));
  try {
    const at = (file: string, seconds: number) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (!fs.existsSync(file)) fs.writeFileSync(file, '');
      fs.utimesSync(file, seconds, seconds);
    };
    at(path.join(tree, 'src', 'deep', 'a.ts'), 1000);
    at(path.join(tree, 'package-lock.json'), 1000);
    assert.equal(isFresh(tree), false, 'never built');
    at(path.join(tree, 'dist', '.built'), 2000);
    assert.equal(isFresh(tree), true);
    at(path.join(tree, 'src', 'deep', 'b.ts'), 3000);
    assert.equal(isFresh(tree), false, 'a source edited since');
    at(path.join(tree, 'dist', '.built'), 4000);
    at(path.join(tree, 'package-lock.json'), 5000);
    assert.equal(isFresh(tree), false, 'packages changed since');
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
  assert.match(fs.readFileSync(path.join(root, 'bin', 'rollcall.mjs'), 'utf8'), /if \(isFresh\(root\)\)/);
});

test('every package that src/, bin/ and the build import is a dependency, not a devDependency', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const files = [...filesUnder(path.join(root, 'src')), ...filesUnder(path.join(root, 'bin')), path.join(root, 'scripts', 'build.mjs'), path.join(root, 'scripts', 'dist-fresh.mjs')];
  const missing = new Map<string, string>();
  let found = 0;
  for (const file of files) {
    for (const name of importsOf(file)) {
      found++;
      if (!(name in pkg.dependencies)) missing.set(name, path.relative(root, file));
    }
  }
  assert.ok(found > 100, `${found} package imports read`);
  assert.deepEqual(Object.fromEntries(missing), {}, 'imported at run time but not in dependencies');
  // The reader sees the kinds of import the code uses.
  assert.deepEqual(importsOf(path.join(root, 'src', 'platform', 'db', 'dialect.ts')).sort().includes('better-sqlite3'), true);
  assert.ok(importsOf(path.join(root, 'src', 'probe', 'off-thread.ts')).includes('tsx'));
  assert.ok(importsOf(path.join(root, 'scripts', 'build.mjs')).includes('esbuild'));
});

test(`the build in dist/ starts without tsx, serves REST, MCP and A2A, probes on its thread, and stops on SIGTERM (${engine})`, async (t) => {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--out', out], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(built.status, 0, built.stderr);
  assert.ok(fs.existsSync(path.join(out, 'main.mjs')) && fs.existsSync(path.join(out, 'probe', 'probe-thread.mjs')) && fs.existsSync(path.join(out, 'assets', 'site.css')));
  for (const file of fs.readdirSync(out).filter((f) => f.endsWith('.mjs'))) {
    assert.ok(!/from ["']\.[^"']*\.ts["']/.test(fs.readFileSync(path.join(out, file), 'utf8')), `${file} imports no TypeScript`);
  }
  store = await freshStore();
  await store.db.close();
  agent = await startA2aAgent({ host: '127.0.0.2' });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(out, 'main.mjs'), 'serve'], {
    cwd: root,
    env: { ...process.env, ...store.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, LOG_LEVEL: 'info', PROBE_ALLOW_PRIVATE: '1', NODE_OPTIONS: '', METRICS_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let log = '';
  child.stdout.on('data', (c) => (log += c));
  child.stderr.on('data', (c) => (log += c));
  const deadline = Date.now() + 30_000;
  while ((await fetch(`${base}/readyz`).catch(() => undefined))?.status !== 200) {
    assert.ok(Date.now() < deadline && child.exitCode === null, `not ready: ${log.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // REST: a real agent is published and probed on the thread until it is Live.
  const published = await (await fetch(`${base}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: agent.cardUrl }) })).json();
  assert.equal(published.ok, true, JSON.stringify(published));
  let lane = '';
  while (lane !== 'active') {
    assert.ok(Date.now() < deadline + 30_000, `never Live: ${lane} ${log.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
    lane = (await (await fetch(`${base}/api/listings/status?id=${published.listing_id}`)).json()).lane;
  }
  assert.ok(!/probe thread (stopped|could not)/.test(log), 'the probes ran on the thread');
  assert.equal((await fetch(`${base}/assets/site.css`)).status, 200);
  // MCP, with the official SDK client.
  const mcp = new Client({ name: 'build-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  const { tools } = await mcp.listTools();
  assert.ok(tools.some((x) => x.name === 'list_yourself'));
  const status = await mcp.callTool({ name: 'check_status', arguments: { id: published.listing_id } });
  assert.equal((status.structuredContent as { lane: string }).lane, 'active');
  await mcp.close();
  // A2A, with the A2A SDK client reading the served card.
  const a2a = await new ClientFactory().createFromUrl(base);
  const task = (await a2a.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'find a translation agent' }] } }))) as Task;
  assert.ok('status' in task, 'the answer is a Task');
  // SIGTERM: finishes and exits 0.
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0, log.slice(-2000));
});
