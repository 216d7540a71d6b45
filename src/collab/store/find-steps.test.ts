// stepsOf and stepsOfMany against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { stepsOf, stepsOfMany } from './find-steps.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test("a session's steps in order, of one session or several", async () => {
  await insertSession(d.ex, wf('wf_st'), 'ses_st', NOW);
  const steps = await stepsOf(d.ex, 'ses_st');
  assert.deepEqual(steps, [
    { step: 1, title: 'draft', role: 'writer', state: 'unclaimed', claimed_by: null, claimed_at: null, result: null, done_at: null },
    { step: 2, title: 'check', role: 'lead', state: 'unclaimed', claimed_by: null, claimed_at: null, result: null, done_at: null },
  ]);
  const many = await stepsOfMany(d.ex, ['ses_st', 'ses_none']);
  assert.deepEqual(many.get('ses_st'), steps);
  assert.deepEqual(many.get('ses_none'), []);
  assert.equal((await stepsOfMany(d.ex, [])).size, 0);
  assert.deepEqual(await stepsOf(d.ex, 'ses_none'), []);
});
