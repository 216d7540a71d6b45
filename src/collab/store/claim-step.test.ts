// claimStep against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { stepsOf } from './find-steps.ts';
import { claimStep } from './claim-step.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test('claims an unclaimed step; a second claim and an unknown step get nothing', async () => {
  await insertSession(d.ex, wf('wf_cl'), 'ses_cl', NOW);
  assert.equal(await claimStep(d.ex, 'ses_cl', 1, 'lst_p', NOW), true);
  assert.equal(await claimStep(d.ex, 'ses_cl', 1, 'lst_lead', NOW), false);
  assert.equal(await claimStep(d.ex, 'ses_cl', 9, 'lst_p', NOW), false);
  const [first] = await stepsOf(d.ex, 'ses_cl');
  assert.deepEqual([first?.state, first?.claimed_by, first?.claimed_at], ['claimed', 'lst_p', NOW]);
});

test('of racing claimers exactly one gets the step', async () => {
  await insertSession(d.ex, wf('wf_race'), 'ses_race', NOW);
  const wins = await Promise.all(['lst_a', 'lst_b', 'lst_c'].map((id) => claimStep(d.ex, 'ses_race', 2, id, NOW)));
  assert.equal(wins.filter(Boolean).length, 1);
});
