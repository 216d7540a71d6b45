// addParticipant against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { findParticipant } from './find-participants.ts';
import { addParticipant } from './add-participant.ts';
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

test('adds a seat once, joined or invited, bring-your-own or not', async () => {
  await insertSession(d.ex, wf('wf_add', []), 'ses_add', NOW);
  assert.equal(await addParticipant(d.ex, 'ses_add', { listing_id: 'lst_byo', role: 'helper', status: 'joined', byo: true }, NOW), true);
  assert.deepEqual(await findParticipant(d.ex, 'ses_add', 'lst_byo'), { listing_id: 'lst_byo', role: 'helper', status: 'joined', byo: true, invited_at: NOW, joined_at: NOW });
  assert.equal(await addParticipant(d.ex, 'ses_add', { listing_id: 'lst_inv', role: 'helper', status: 'invited', byo: false }, NOW), true);
  assert.equal((await findParticipant(d.ex, 'ses_add', 'lst_inv'))?.joined_at, null);
  assert.equal(await addParticipant(d.ex, 'ses_add', { listing_id: 'lst_byo', role: 'other', status: 'joined', byo: false }, NOW), false);
  assert.equal(await addParticipant(d.ex, 'ses_add', { listing_id: 'lst_lead', role: 'x', status: 'joined', byo: false }, NOW), false);
  assert.equal((await findParticipant(d.ex, 'ses_add', 'lst_byo'))?.role, 'helper');
});
