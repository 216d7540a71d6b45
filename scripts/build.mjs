// Compiles the server once, so a start loads plain JavaScript instead of compiling every file
// through tsx (docs/performance.md "Start time"). esbuild bundles src/main.ts and the probe
// thread's entry into dist/ (ES modules, packages left as imports of node_modules, shared code in
// chunks, source maps beside them) and copies the pages' static assets next to the chunks that
// read them. `npm ci` runs it (the `prepare` script, in the production install too: esbuild is a
// dependency); `npm start` runs it with --if-stale, which rebuilds only when a file under src/ or
// package-lock.json is newer than the last build.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { isFresh, stampOf } from './dist-fresh.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
// --out DIR: build somewhere else inside the project (a test builds its own copy; node_modules
// must be reachable from it, so outside the project the packages would not resolve).
const outAt = process.argv.indexOf('--out');
const out = outAt > 0 ? path.resolve(process.argv[outAt + 1]) : path.join(root, 'dist');
const stamp = stampOf(out);

if (process.argv.includes('--if-stale') && isFresh(root, out)) process.exit(0);

const started = performance.now();
fs.rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: { main: path.join(src, 'main.ts'), 'probe/probe-thread': path.join(src, 'probe', 'probe-thread.ts') },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  outExtension: { '.js': '.mjs' },
  // Tells the code it runs from dist/ (src/platform/bundled.ts): the probe thread's entry is then
  // dist/probe/probe-thread.mjs, loaded without tsx.
  define: { ROLLCALL_BUNDLED: 'true' },
  logLevel: 'warning',
});
fs.cpSync(path.join(src, 'http', 'pages', 'assets'), path.join(out, 'assets'), { recursive: true });
fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
process.stderr.write(`rollcall: built dist/ in ${Math.round(performance.now() - started)} ms\n`);
