// insertSession against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
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

test('opens the session with the lead joined, partners invited, steps unclaimed', async () => {
  await insertSession(d.ex, wf('wf_s'), 'ses_1', NOW);
  const s = await d.sql.selectFrom('collab_sessions').selectAll().where('id', '=', 'ses_1').executeTakeFirstOrThrow();
  assert.equal(s.state, 'open');
  assert.equal(Number(s.open_join), 0);
  const seats = await d.sql.selectFrom('collab_participants').select(['listing_id', 'role', 'status', 'joined_at']).where('session_id', '=', 'ses_1').orderBy('listing_id').execute();
  assert.deepEqual(seats, [
    { listing_id: 'lst_lead', role: 'lead', status: 'joined', joined_at: NOW },
    { listing_id: 'lst_p', role: 'writer', status: 'invited', joined_at: null },
  ]);
  const steps = await d.sql.selectFrom('collab_steps').select(['step', 'state']).where('session_id', '=', 'ses_1').orderBy('step').execute();
  assert.deepEqual(steps.map((r) => [Number(r.step), r.state]), [[1, 'unclaimed'], [2, 'unclaimed']]);
});

test('a workflow without partners opens to anyone', async () => {
  await insertSession(d.ex, wf('wf_solo', []), 'ses_2', NOW);
  const s = await d.sql.selectFrom('collab_sessions').select('open_join').where('id', '=', 'ses_2').executeTakeFirstOrThrow();
  assert.equal(Number(s.open_join), 1);
});
