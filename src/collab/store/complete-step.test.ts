// completeStep against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { stepsOf } from './find-steps.ts';
import { claimStep } from './claim-step.ts';
import { completeStep } from './complete-step.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();
const LATER = '2026-11-01T13:00:00.000Z';

test("only the step's claimer records its result, once", async () => {
  await insertSession(d.ex, wf('wf_done'), 'ses_done', NOW);
  assert.equal(await completeStep(d.ex, 'ses_done', 1, 'lst_p', 'early', LATER), false);
  await claimStep(d.ex, 'ses_done', 1, 'lst_p', NOW);
  assert.equal(await completeStep(d.ex, 'ses_done', 1, 'lst_lead', 'not mine', LATER), false);
  assert.equal(await completeStep(d.ex, 'ses_done', 1, 'lst_p', 'the draft', LATER), true);
  assert.equal(await completeStep(d.ex, 'ses_done', 1, 'lst_p', 'again', LATER), false);
  const [first] = await stepsOf(d.ex, 'ses_done');
  assert.deepEqual([first?.state, first?.result, first?.done_at], ['done', 'the draft', LATER]);
});
