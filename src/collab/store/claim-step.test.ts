// claimStep against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { stepsOf } from './find-steps.ts';
import { claimStep } from './claim-step.ts';
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
