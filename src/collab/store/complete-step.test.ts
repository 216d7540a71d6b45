// completeStep against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { stepsOf } from './find-steps.ts';
import { claimStep } from './claim-step.ts';
import { completeStep } from './complete-step.ts';
import type { Workflow } from './row.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const wf = (id: string, partners: Workflow['partners'] = [{ listing_id: 'lst_p', role: 'writer' }], at = NOW): Workflow => ({
  workflow_id: id,
  owner_listing_id: 'lst_lead',
  owner_subject: 'sub_lead',
  agent_name: null,
  goal: 'a goal',
  partners,
  steps: [
    { step: 1, title: 'draft', role: 'writer' },
    { step: 2, title: 'check', role: 'lead' },
  ],
  source: 'manual',
  created_at: at,
});
let d: StoreDb;
before(async () => {
  d = await migratedDb();
});
after(() => d.close());
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
