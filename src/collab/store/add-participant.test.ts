// addParticipant against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { findParticipant } from './find-participants.ts';
import { addParticipant } from './add-participant.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

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
