// acceptInvitation against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { findParticipant } from './find-participants.ts';
import { acceptInvitation } from './accept-invitation.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();
const LATER = '2026-11-01T13:00:00.000Z';

test('an invited partner joins once; the lead and strangers cannot', async () => {
  await insertSession(d.ex, wf('wf_i'), 'ses_i', NOW);
  assert.equal(await acceptInvitation(d.ex, 'ses_i', 'lst_p', LATER), true);
  assert.deepEqual(await findParticipant(d.ex, 'ses_i', 'lst_p'), { listing_id: 'lst_p', role: 'writer', status: 'joined', byo: false, invited_at: NOW, joined_at: LATER });
  assert.equal(await acceptInvitation(d.ex, 'ses_i', 'lst_p', LATER), false);
  assert.equal(await acceptInvitation(d.ex, 'ses_i', 'lst_lead', LATER), false);
  assert.equal(await acceptInvitation(d.ex, 'ses_i', 'lst_stranger', LATER), false);
});
