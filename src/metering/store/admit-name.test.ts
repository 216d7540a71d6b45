// admitName against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { admitName } from './admit-name.ts';

const d = migratedDbPerFile();
const DAY = '2026-11-01';

test('admits up to max names per address and day; a known name always', async () => {
  assert.equal(await admitName(d.ex, '10.0.0.1', DAY, 'alpha', 2), true);
  assert.equal(await admitName(d.ex, '10.0.0.1', DAY, 'beta', 2), true);
  assert.equal(await admitName(d.ex, '10.0.0.1', DAY, 'gamma', 2), false);
  assert.equal(await admitName(d.ex, '10.0.0.1', DAY, 'alpha', 2), true);
  assert.equal(await admitName(d.ex, '10.0.0.1', '2026-11-02', 'gamma', 2), true);
  assert.equal(await admitName(d.ex, '10.0.0.2', DAY, 'gamma', 2), true);
});

test('record=false answers without recording', async () => {
  assert.equal(await admitName(d.ex, '10.0.0.3', DAY, 'probe', 1, false), true);
  assert.equal(await admitName(d.ex, '10.0.0.3', DAY, 'other', 1), true);
  assert.equal(await admitName(d.ex, '10.0.0.3', DAY, 'probe', 1, false), false);
});
