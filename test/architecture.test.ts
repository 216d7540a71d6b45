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

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Copies src/, applies the plants (file -> lines appended), and returns every violation of the rules. */
async function violations(plants: Record<string, string[]>): Promise<Violation[]> {
  const src = path.join(work, 'src');
  fs.rmSync(src, { recursive: true, force: true });
  fs.cpSync(path.join(root, 'src'), src, { recursive: true });
  for (const [file, lines] of Object.entries(plants)) {
    const target = path.join(src, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.appendFileSync(target, `\n${lines.join('\n')}\n`);
  }
  const run = await promisify(execFile)(process.execPath, [cli, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: work, maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

test('the real tree has no violation', async () => {
  assert.deepEqual(await violations({}), []);
});

/** Each case: what it plants (a file and the line appended to it) and the rule that must catch that import. */
const cases: [string, [file: string, line: string][], string][] = [
  ['platform importing a domain', [['platform/clock.ts', "import '../listings/store.ts';"]], 'platform-knows-no-domain'],
  ['platform importing a door', [['platform/ids.ts', "import '../http/errors.ts';"]], 'platform-knows-no-domain'],
  ['a domain importing a door', [['probe/score.ts', "import '../http/errors.ts';"]], 'probe-layer'],
  ['a lower domain importing a higher one', [['listings/url.ts', "import '../probe/score.ts';"]], 'listings-layer'],
  ['a domain importing the assembly', [['talk/presence.ts', "import '../services.ts';"]], 'talk-layer'],
  ['the registry importing a door', [['registry/active.ts', "import '../http/rest.ts';"]], 'registry-no-door'],
  ['a door importing the assembly', [['http/origin.ts', "import '../catalog.ts';"]], 'doors-no-assembly'],
  ['a door importing a CLI command', [['http/origin.ts', "import '../cli/command.ts';"]], 'doors-no-assembly'],
  ['the registry importing a CLI command', [['registry/air.ts', "import '../cli/command.ts';"]], 'registry-no-door'],
  ["a domain reaching another domain's tables", [['probe/apply.ts', "import { talkTables } from '../talk/tables.ts';\nvoid talkTables;"]], 'tables-owned-by-their-folder'],
  ["a domain's store subfolder reaching another domain's tables", [['probe/store/planted.ts', "import '../../talk/tables.ts';"]], 'tables-owned-by-their-folder'],
  ["a platform part reaching another part's tables", [['platform/db/planted.ts', "import '../jobs/tables.ts';"]], 'tables-owned-by-their-folder'],
  ["the registry reaching a domain's tables", [['registry/active.ts', "import '../listings/tables.ts';"]], 'tables-owned-by-their-folder'],
  ['an import circle inside one domain', [['listings/text.ts', "import './url.ts';"], ['listings/url.ts', "import './text.ts';"]], 'no-circular'],
  ['an unregistered folder', [['widgets/engine.ts', 'export const x = 1;'], ['registry/active.ts', "import '../widgets/engine.ts';"]], 'known-folders-only'],
];

/** The module a planted import names, as dependency-cruiser reports it (src/...). */
function importedBy(file: string, line: string): string | undefined {
  const spec = /import (?:[^']*from )?'([^']+)'/.exec(line)?.[1];
  return spec && path.posix.join('src', path.posix.dirname(file), spec);
}

// Every plant goes into one copy of src/ and one run: each case's import must be caught by its own
// rule (matched by the importing and the imported module), and a domain's store subfolder querying
// its own tables by none.
let found: Violation[] = [];
before(async () => {
  const plants: Record<string, string[]> = { 'listings/store/planted.ts': ["import '../tables.ts';"] };
  for (const [, lines] of cases) {
    for (const [file, line] of lines) plants[file] = [...(plants[file] ?? []), line];
  }
  found = await violations(plants);
});

test("a domain's subfolder may query its own tables", () => {
  assert.deepEqual(found.filter((v) => v.from === 'src/listings/store/planted.ts'), []);
});

for (const [what, lines, rule] of cases) {
  test(`the rules catch ${what}`, () => {
    const caught = lines.some(([file, line]) => {
      const to = importedBy(file, line);
      return found.some((v) => v.rule.name === rule && v.from === `src/${file}` && (to === undefined || v.to === to || rule === 'known-folders-only' || rule === 'no-circular'));
    });
    assert.ok(caught, `expected ${rule} for ${what}; found: ${found.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`).join('; ')}`);
  });
}
