#!/usr/bin/env node
// The `rollcall` command (package.json "bin"). It runs the server's code in this same process, so a
// signal sent to `rollcall serve` (SIGTERM, Ctrl-C) reaches the server: the build in dist/ when it
// is fresh (what `npm ci` and `npm start` leave), which starts in about half the time, else
// src/main.ts through tsx's loader, so a command never runs code older than the sources.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFresh } from '../scripts/dist-fresh.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
if (isFresh(root)) {
  process.setSourceMapsEnabled(true);
  await import('../dist/main.mjs');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
