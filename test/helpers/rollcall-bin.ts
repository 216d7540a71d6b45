// The `rollcall` bin (bin/rollcall.mjs, package.json "bin") run in its own process on a test store,
// as an operator runs it: for the command-line test files.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { TestStore } from './store.ts';

export const root = path.resolve(import.meta.dirname, '../..');
export const BIN = path.join(root, 'bin/rollcall.mjs');

export interface Run {
  code: number | null;
  out: string;
  err: string;
  ms: number;
}

/** Runs the bin on `store` (asynchronously: a server it probes may answer from the calling process). */
export function runBin(store: TestStore, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const base: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: undefined, PROBE_ALLOW_PRIVATE: undefined };
  delete base.DATABASE_URL;
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd: root, env: { ...base, ...store.env, ...env } as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err, ms: Date.now() - started })));
}

/** stdout with --json: exactly one JSON document. */
export const doc = (r: Run) => {
  assert.equal(r.out.trim().split('\n').length, 1, `one line of JSON on stdout: ${r.out}`);
  return JSON.parse(r.out);
};
