// acceptInvitation against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { findParticipant } from './find-participants.ts';
import { acceptInvitation } from './accept-invitation.ts';
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

test('an invited partner joins once; the lead and strangers cannot', async () => {
  await insertSession(d.ex, wf('wf_i'), 'ses_i', NOW);
  assert.equal(await acceptInvitation(d.ex, 'ses_i', 'lst_p', LATER), true);
  assert.deepEqual(await findParticipant(d.ex, 'ses_i', 'lst_p'), { listing_id: 'lst_p', role: 'writer', status: 'joined', byo: false, invited_at: NOW, joined_at: LATER });
  assert.equal(await acceptInvitation(d.ex, 'ses_i', 'lst_p', LATER), false);
  assert.equal(await acceptInvitation(d.ex, 'ses_i', 'lst_lead', LATER), false);
  assert.equal(await acceptInvitation(d.ex, 'ses_i', 'lst_stranger', LATER), false);
});
