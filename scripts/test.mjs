#!/usr/bin/env node
// `npm test`: type check, lint (Biome) and the dependency rules (dependency-cruiser), then the
// whole suite on SQLite, then again on PostgreSQL in a fresh database this script creates and drops
// (but for the files ENGINE_FREE names, whose outcome does not depend on the engine). PostgreSQL is used when reachable (or DATABASE_URL is
// set); under CI=true, or with DATABASE_URL set, an unreachable PostgreSQL fails the run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const ci = process.env.CI === 'true' || process.env.CI === '1';
// A test that hangs fails after this long instead of holding the whole run (and CI) hostage. The
// runner applies it to each file as a whole too: the longest files take 60-90 s on a quiet 2-core
// machine and ran past 300 s on a loaded one, so the limit leaves them several times that.
const TEST_TIMEOUT_MS = 600_000;

function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [path.relative(root, p)] : [];
  });
}

/**
 * Files whose outcome does not depend on the database engine run on SQLite only: those that never
 * open a database (pure functions, the dependency rules, the docs' links, the guarded client) and
 * two that open one only to have something to show: how every page looks in Chromium (what the
 * pages hold is pages.test.ts's subject, on both engines) and the documents' shell examples, which
 * run as a reader runs them, on the embedded database `npm start` uses (docs/performance.md, "The
 * test suite", has what running them twice cost).
 */
const ENGINE_FREE = new Set([
  'test/a2a-intents.test.ts',
  'test/architecture.test.ts',
  'test/cddl-helper.test.ts',
  'test/config.test.ts',
  'test/doc-examples.test.ts',
  'test/docs-links.test.ts',
  'test/example-arguments.test.ts',
  'test/guard-tls.test.ts',
  'test/guard.test.ts',
  'test/logistic.test.ts',
  'test/pages-look.test.ts',
  'test/param-schema.test.ts',
  'test/rpc.test.ts',
  'test/url.test.ts',
  'src/listings/categories.test.ts',
  'src/platform/budget/reservation.test.ts',
  'src/platform/ids.test.ts',
]);

const count = (out, word) => [...out.matchAll(new RegExp(`^ℹ ${word} (\\d+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);

async function suite(label, env, { engineFree }) {
  console.log(`\n=== tests on ${label} ===`);
  // The suites in test/ and, beside each store operation in src/, that operation's own test.
  const files = [...testFiles(path.join(root, 'test')), ...testFiles(path.join(root, 'src'))].sort().filter((f) => engineFree || !ENGINE_FREE.has(f));
  const { code, out } = await run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=3', `--test-timeout=${TEST_TIMEOUT_MS}`, ...files], env);
  const result = { label, passed: count(out, 'pass'), failed: count(out, 'fail'), code };
  if (code !== 0 && result.failed === 0) result.failed = 1; // the runner itself failed
  return result;
}

async function postgresAdminUrl() {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { url };
  } catch (err) {
    return { url, error: err };
  } finally {
    await client.end().catch(() => {});
  }
}

async function withAdmin(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const results = [];
const checks = [
  ['type check', [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit']],
  ['lint', [path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'lint', '--error-on-warnings']],
  ['dependency rules', [path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']],
];
for (const [label, args] of checks) {
  console.log(`=== ${label} ===`);
  const check = await run(process.execPath, args, {});
  if (check.code !== 0) {
    console.error(`${label} failed`);
    process.exit(1);
  }
}

for (const file of ENGINE_FREE) if (!fs.existsSync(path.join(root, file))) throw new Error(`scripts/test.mjs: ENGINE_FREE names ${file}, which does not exist`);
results.push(await suite('SQLite', { RC_TEST_ENGINE: 'sqlite' }, { engineFree: true }));

const admin = await postgresAdminUrl();
if (admin.error) {
  const why = `PostgreSQL is not reachable at ${admin.url.replace(/\/\/[^@]*@/, '//')}: ${admin.error.message}`;
  if (ci || process.env.DATABASE_URL) {
    console.error(`\n${why}\nThe PostgreSQL run is required here (CI or DATABASE_URL); failing.`);
    results.push({ label: 'PostgreSQL', passed: 0, failed: 1, code: 1 });
  } else {
    console.warn(`\n!!! ${why}\n!!! ONLY SQLite WAS TESTED. Start PostgreSQL or set DATABASE_URL to test both engines.`);
  }
} else {
  const dbName = `rollcall_test_${Date.now()}_${process.pid}`;
  const target = new URL(admin.url);
  target.pathname = `/${dbName}`;
  await withAdmin(admin.url, `CREATE DATABASE ${dbName}`);
  try {
    results.push(await suite(`PostgreSQL (${dbName})`, { RC_TEST_ENGINE: 'postgres', RC_TEST_DATABASE_URL: target.toString() }, { engineFree: false }));
  } finally {
    await withAdmin(admin.url, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

console.log('');
for (const r of results) console.log(`${r.label}: ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && results.every((r) => r.code === 0) ? 0 : 1);
