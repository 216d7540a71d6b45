// moveSession against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { findSession } from './find-session.ts';
import { moveSession } from './move-session.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();
const LATER = '2026-11-01T13:00:00.000Z';

test('moves from an expected state with the patch; closing stamps closed_at', async () => {
  await insertSession(d.ex, wf('wf_m'), 'ses_m', NOW);
  assert.equal(await moveSession(d.ex, 'ses_m', ['open'], 'converged', LATER, { converged: { text: 'done' } }), true);
  assert.equal(await moveSession(d.ex, 'ses_m', ['converged'], 'closed', LATER, { outcome: 'packaged', product_id: 'prd_1' }), true);
  const s = await findSession(d.ex, 'ses_m');
  assert.deepEqual([s?.state, s?.converged, s?.outcome, s?.product_id, s?.closed_at, s?.updated_at], ['closed', { text: 'done' }, 'packaged', 'prd_1', LATER, LATER]);
});

test('false from any other state, and nothing changes', async () => {
  await insertSession(d.ex, wf('wf_n'), 'ses_n', NOW);
  assert.equal(await moveSession(d.ex, 'ses_n', ['active', 'converged'], 'closed', LATER), false);
  assert.equal((await findSession(d.ex, 'ses_n'))?.state, 'open');
  assert.equal(await moveSession(d.ex, 'ses_none', ['open'], 'closed', LATER), false);
});

test('of two racing closes exactly one wins', async () => {
  await insertSession(d.ex, wf('wf_r'), 'ses_r', NOW);
  const wins = await Promise.all([1, 2].map(() => moveSession(d.ex, 'ses_r', ['open'], 'closed', LATER)));
  assert.deepEqual(wins.sort(), [false, true]);
});
