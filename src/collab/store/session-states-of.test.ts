// sessionStatesOf against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { moveSession } from './move-session.ts';
import { sessionStatesOf } from './session-states-of.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test("a listing's sessions counted by state, every state present", async () => {
  assert.deepEqual(await sessionStatesOf(d.ex, 'lst_p'), { open: 0, active: 0, converged: 0, closed: 0 });
  await insertSession(d.ex, wf('wf_1'), 'ses_1', NOW);
  await insertSession(d.ex, wf('wf_2'), 'ses_2', NOW);
  await insertSession(d.ex, wf('wf_3', [{ listing_id: 'lst_q', role: 'writer' }]), 'ses_3', NOW);
  await moveSession(d.ex, 'ses_2', ['open'], 'active', NOW);
  assert.deepEqual(await sessionStatesOf(d.ex, 'lst_p'), { open: 1, active: 1, converged: 0, closed: 0 });
  assert.deepEqual(await sessionStatesOf(d.ex, 'lst_lead'), { open: 2, active: 1, converged: 0, closed: 0 });
});
