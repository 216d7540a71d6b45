// findSession, lockSession and currentSession against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { moveSession } from './move-session.ts';
import { currentSession, findSession, lockSession } from './find-session.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test('reads a session by id, plain and under either lock', async () => {
  await insertSession(d.ex, wf('wf_a'), 'ses_a', NOW);
  const s = await findSession(d.ex, 'ses_a');
  assert.deepEqual(s, { session_id: 'ses_a', workflow_id: 'wf_a', owner_listing_id: 'lst_lead', goal: 'a goal', state: 'open', open_join: false, outcome: null, converged: null, product_id: null, created_at: NOW, updated_at: NOW, closed_at: null });
  for (const mode of ['share', 'update'] as const) assert.deepEqual(await d.store.db.kysely.transaction().execute((trx) => lockSession(trx, 'ses_a', mode)), s);
  assert.equal(await findSession(d.ex, 'ses_none'), undefined);
});

test("the workflow's current session is its one not closed", async () => {
  await insertSession(d.ex, wf('wf_c'), 'ses_c1', '2026-11-01T00:00:00.000Z');
  assert.equal((await currentSession(d.ex, 'wf_c'))?.session_id, 'ses_c1');
  await moveSession(d.ex, 'ses_c1', ['open'], 'closed', NOW);
  assert.equal(await currentSession(d.ex, 'wf_c'), undefined);
  await insertSession(d.ex, wf('wf_c'), 'ses_c2', NOW);
  assert.equal((await currentSession(d.ex, 'wf_c'))?.session_id, 'ses_c2');
});
