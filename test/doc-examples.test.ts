// Every shell example of README.md and docs/guide/*.md, run as written (test/helpers/doc-examples.ts
// says how a block is read). Each document is one bash session in the project's folder, as a
// reader's terminal would be: the servers of the README's "Try it on your laptop" (and any the
// document starts itself) run in the background on free ports, Rollcall on a fresh database of
// this run's engine; the document's blocks run in order, and every command must exit 0 (curl is
// made to fail on an HTTP error unless the example prints the status with -w) and print what the
// document says it prints.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshStore } from './helpers/store.ts';
import { freePort } from './peers/mcp-servers.ts';
import { type Block, commandOf, shellBlocks, unmet } from './helpers/doc-examples.ts';

const root = path.resolve(import.meta.dirname, '..');
const guide = path.join(root, 'docs/guide');
// RC_DOCS_ONLY=<file>: that document alone, to try its examples while writing it.
const DOCS = process.env.RC_DOCS_ONLY ? [process.env.RC_DOCS_ONLY] : ['README.md', ...fs.readdirSync(guide).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/guide/${f}`)];
const blocksOf = (file: string) => shellBlocks(file, fs.readFileSync(path.join(root, file), 'utf8'));
const readmeServers = blocksOf('README.md').filter((b) => b.kind === 'background');
/** The port Rollcall listens on in the documents. */
const ROLLCALL_PORT = 8080;
/** One document's commands: room for a shared machine several times slower than a quiet 2-core one, where docs/guide/cli.md takes about 35 s. */
const SESSION_TIMEOUT_MS = 360_000;
/** Documents run side by side: most of a session is waiting for servers and probes. */
const SESSIONS_AT_ONCE = 3;

test('the documents mark every shell example they do not run, with the reason', () => {
  const all = DOCS.flatMap(blocksOf);
  assert.ok(all.filter((b) => b.kind === 'run').length >= DOCS.length, 'every document runs examples');
  for (const b of all.filter((b) => b.kind === 'skipped')) assert.ok(b.note.length >= 15, `${b.file}:${b.line}: say why the example is not run`);
  for (const b of all.filter((b) => b.kind === 'background')) assert.equal(commandOf(b).split('\n').length, 1, `${b.file}:${b.line}: a server block starts one server`);
  assert.ok(readmeServers.some((b) => /\bnpm start\b/.test(commandOf(b))), 'the README starts Rollcall with npm start');
});

// Each document has its own time limit; the whole run gets room for all of them on a busy machine.
test('the shell examples of the documents run as written against real servers', { concurrency: SESSIONS_AT_ONCE, timeout: 20 * 60_000 }, async (t) => {
  // Built once before the sessions start, so their `npm start`s find dist/ fresh and none rebuilds it under another.
  await new Promise<void>((resolve, reject) =>
    spawn(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' }).on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build exited ${code}`)))),
  );
  // The sessions that run the most commands of their own start first, so the slowest is not the last to start.
  const cost = (file: string) => (fs.readFileSync(path.join(root, file), 'utf8').match(/npx rollcall/g) ?? []).length;
  const order = [...DOCS].sort((a, b) => cost(b) - cost(a));
  await Promise.all(order.map((file) => t.test(file, { timeout: SESSION_TIMEOUT_MS + 60_000 }, (st) => session(st, file))));
});

/** One document's blocks in one bash session, against its own servers. */
async function session(t: TestContext, file: string): Promise<void> {
  const blocks = blocksOf(file);
  const servers = [...new Map([...readmeServers, ...blocks.filter((b) => b.kind === 'background')].map((b) => [b.text, b])).values()];
  const runs = blocks.filter((b) => b.kind === 'run' && (b.needs === undefined || installed(t, b)));
  if (runs.length === 0) return;

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-docs-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const store = await freshStore();
  await store.db.close();
  t.after(() => store.drop());

  // Every port the examples name gets a free one; the claim file goes to a temporary folder.
  const ports = new Map<number, number>();
  for (const b of [...servers, ...runs]) for (const m of b.text.matchAll(/\b(?:localhost:|PORT=)(\d{2,5})\b/gi)) ports.set(Number(m[1]), 0);
  ports.set(ROLLCALL_PORT, 0);
  for (const p of ports.keys()) ports.set(p, await freePort());
  const rollcall = ports.get(ROLLCALL_PORT)!;
  const local = (text: string) =>
    text
      .replace(/\b(localhost:|PORT=)(\d{2,5})\b/gi, (_, prefix: string, p: string) => `${prefix}${ports.get(Number(p))}`)
      .replaceAll('./rollcall-claim.txt', path.join(tmp, 'rollcall-claim.txt'));

  // The reader's terminal: Rollcall's settings come from the environment, as its docs say.
  const env: Record<string, string | undefined> = { ...process.env, ...store.env, PORT: String(rollcall), HOST: '127.0.0.1', METRICS_PORT: '0', LOG_LEVEL: 'warn', ADMIN_TOKEN: 'a-long-random-operator-secret' };
  if (!store.env.DATABASE_URL) delete env.DATABASE_URL;
  delete env.NODE_TEST_CONTEXT;

  const started: { block: Block; child: ChildProcess; output: () => string }[] = [];
  // Killed outright at the end: clean shutdown is test/transport-errors.test.ts's subject, not this one's.
  t.after(() => Promise.all(started.map(({ child }) => stop(child, 'SIGKILL'))));
  for (const block of servers) {
    const child = spawn('bash', ['-c', local(commandOf(block))], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    started.push({ block, child, output: () => output });
  }
  await Promise.all(
    started.map(({ block, child, output }) => {
      const port = Number(/\bPORT=(\d+)/.exec(local(commandOf(block)))?.[1] ?? rollcall);
      return answers(port === rollcall ? `http://localhost:${port}/readyz` : `http://localhost:${port}/`, child).catch((err: Error) => {
        throw new Error(`${block.file}:${block.line} (${block.note}) did not start: ${err.message}\n${output()}`);
      });
    }),
  );

  // One bash session: each unit's output to files of its own, a marker once it has passed.
  const units = runs.flatMap((b) => b.units.map((u) => ({ ...u, file: b.file })));
  const script = [
    'set -euo pipefail',
    // An HTTP error fails the command, unless the example prints the status itself (-w).
    'curl() { case " $* " in *" -w "*) command curl "$@" ;; *) command curl --fail-with-body "$@" ;; esac; }',
    ...units.map((u, i) => `{\n${local(u.code)}\n} >"${tmp}/${i}.out" 2>"${tmp}/${i}.err"\ntouch "${tmp}/${i}.ok"`),
  ].join('\n');
  fs.writeFileSync(path.join(tmp, 'session.sh'), script);
  const shell = spawn('bash', [path.join(tmp, 'session.sh')], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let shellOut = '';
  shell.stdout!.on('data', (c) => (shellOut += c));
  shell.stderr!.on('data', (c) => (shellOut += c));
  const timer = setTimeout(() => void stop(shell), SESSION_TIMEOUT_MS);
  await new Promise((resolve) => shell.on('exit', resolve));
  clearTimeout(timer);
  // A server a document ran in the background of its session (nginx) goes with it, even when a command failed first.
  try {
    process.kill(-shell.pid!, 'SIGTERM');
  } catch {
    /* nothing left */
  }

  const read = (i: number, ext: string) => (fs.existsSync(path.join(tmp, `${i}.${ext}`)) ? fs.readFileSync(path.join(tmp, `${i}.${ext}`), 'utf8') : '');
  units.forEach((u, i) => {
    const where = `${u.file}:${u.line}`;
    const out = read(i, 'out');
    const err = read(i, 'err');
    assert.ok(fs.existsSync(path.join(tmp, `${i}.ok`)), `${where} failed:\n${u.code}\n--- stdout\n${out}\n--- stderr\n${err}${shellOut}\n--- servers\n${started.map((s) => s.output().slice(-2000)).join('\n')}`);
    for (const e of u.expect) {
      const missing = unmet({ ...e, text: local(e.text) }, e.stream === 'stdout' ? out : err);
      assert.deepEqual(missing, [], `${where}: what it printed is not what the document says (# ${e.stream === 'stdout' ? '->' : 'stderr:'} ${e.text})\n${u.code}\n--- ${e.stream}\n${e.stream === 'stdout' ? out : err}`);
    }
  });
}

const ci = process.env.CI === 'true' || process.env.CI === '1';

/** Whether the program a block needs is on the PATH: CI installs it (.ci/run), so there its absence fails. */
function installed(t: TestContext, block: Block): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${block.needs}`]).status === 0;
  if (!found) {
    assert.ok(!ci, `${block.file}:${block.line} needs ${block.needs}, which .ci/run installs: it is not on the PATH`);
    t.diagnostic(`${block.file}:${block.line} left out: ${block.needs} is not installed here (${block.note})`);
  }
  return found;
}

/** Resolves once the URL answers (any status for a peer, 200 for Rollcall's /readyz). */
async function answers(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (!url.endsWith('/readyz') || res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/** Stops a process group started detached: with `signal`, then SIGKILL if it lingers. */
async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  kill(signal);
  const timer = setTimeout(() => kill('SIGKILL'), 5000);
  await exited;
  // The shell may end before the server it started has finished shutting down.
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  clearTimeout(timer);
}
