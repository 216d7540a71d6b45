// sessionStatesOf against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { moveSession } from './move-session.ts';
import { sessionStatesOf } from './session-states-of.ts';
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

test("a listing's sessions counted by state, every state present", async () => {
  assert.deepEqual(await sessionStatesOf(d.ex, 'lst_p'), { open: 0, active: 0, converged: 0, closed: 0 });
  await insertSession(d.ex, wf('wf_1'), 'ses_1', NOW);
  await insertSession(d.ex, wf('wf_2'), 'ses_2', NOW);
  await insertSession(d.ex, wf('wf_3', [{ listing_id: 'lst_q', role: 'writer' }]), 'ses_3', NOW);
  await moveSession(d.ex, 'ses_2', ['open'], 'active', NOW);
  assert.deepEqual(await sessionStatesOf(d.ex, 'lst_p'), { open: 1, active: 1, converged: 0, closed: 0 });
  assert.deepEqual(await sessionStatesOf(d.ex, 'lst_lead'), { open: 2, active: 1, converged: 0, closed: 0 });
});
