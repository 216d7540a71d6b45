// The dependency rules (.dependency-cruiser.cjs, run on src/ by `npm test`) fail on real
// violations: each case plants one in a copy of src/ and expects its rule to fire.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
let work: string;

before(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-rules-'));
  for (const f of ['.dependency-cruiser.cjs', 'tsconfig.json', 'package.json']) fs.copyFileSync(path.join(root, f), path.join(work, f));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'));
});
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** Copies src/, applies the plant (file -> line appended), and returns the names of the rules violated. */
async function violations(plants: Record<string, string>): Promise<string[]> {
  const src = path.join(work, 'src');
  fs.rmSync(src, { recursive: true, force: true });
  fs.cpSync(path.join(root, 'src'), src, { recursive: true });
  for (const [file, line] of Object.entries(plants)) {
    const target = path.join(src, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.appendFileSync(target, `\n${line}\n`);
  }
  const run = await promisify(execFile)(process.execPath, [cli, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: work, maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  const result = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string } }[] } };
  return [...new Set(result.summary.violations.map((v) => v.rule.name))].sort();
}

test('the real tree has no violation', async () => {
  assert.deepEqual(await violations({}), []);
});

test("a domain's subfolder may query its own tables", async () => {
  assert.deepEqual(await violations({ 'listings/store/planted.ts': "import '../tables.ts';" }), []);
});

const cases: [string, Record<string, string>, string][] = [
  ['platform importing a domain', { 'platform/clock.ts': "import '../listings/store.ts';" }, 'platform-knows-no-domain'],
  ['platform importing a door', { 'platform/ids.ts': "import '../http/errors.ts';" }, 'platform-knows-no-domain'],
  ['a domain importing a door', { 'probe/score.ts': "import '../http/errors.ts';" }, 'probe-layer'],
  ['a lower domain importing a higher one', { 'listings/url.ts': "import '../probe/score.ts';" }, 'listings-layer'],
  ['a domain importing the assembly', { 'talk/presence.ts': "import '../services.ts';" }, 'talk-layer'],
  ['the registry importing a door', { 'registry/active.ts': "import '../http/rest.ts';" }, 'registry-no-door'],
  ['a door importing the assembly', { 'http/origin.ts': "import '../catalog.ts';" }, 'doors-no-assembly'],
  ['a door importing a CLI command', { 'http/origin.ts': "import '../cli/command.ts';" }, 'doors-no-assembly'],
  ['the registry importing a CLI command', { 'registry/air.ts': "import '../cli/command.ts';" }, 'registry-no-door'],
  ["a domain reaching another domain's tables", { 'probe/apply.ts': "import { talkTables } from '../talk/tables.ts';\nvoid talkTables;" }, 'tables-owned-by-their-folder'],
  ["a domain's store subfolder reaching another domain's tables", { 'probe/store/planted.ts': "import '../../talk/tables.ts';" }, 'tables-owned-by-their-folder'],
  ["a platform part reaching another part's tables", { 'platform/db/planted.ts': "import '../jobs/tables.ts';" }, 'tables-owned-by-their-folder'],
  ["the registry reaching a domain's tables", { 'registry/active.ts': "import '../listings/tables.ts';" }, 'tables-owned-by-their-folder'],
  ['an import circle inside one domain', { 'listings/text.ts': "import './url.ts';", 'listings/url.ts': "import './text.ts';" }, 'no-circular'],
  ['an unregistered folder', { 'widgets/engine.ts': 'export const x = 1;', 'registry/active.ts': "import '../widgets/engine.ts';" }, 'known-folders-only'],
];

for (const [what, plants, rule] of cases) {
  test(`the rules catch ${what}`, async () => {
    const found = await violations(plants);
    assert.ok(found.includes(rule), `expected ${rule}, got ${found.join(', ') || 'nothing'}`);
  });
}
