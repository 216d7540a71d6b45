// participantsOf, findParticipant, countParticipants and participantsOfMany against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { countParticipants, findParticipant, participantsOf, participantsOfMany } from './find-participants.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test("a session's participants, one of them, their count, and several sessions' at once", async () => {
  await insertSession(d.ex, wf('wf_p', [{ listing_id: 'lst_b', role: 'writer' }, { listing_id: 'lst_a', role: 'critic' }]), 'ses_p', NOW);
  await insertSession(d.ex, wf('wf_q', []), 'ses_q', NOW);
  const all = await participantsOf(d.ex, 'ses_p');
  assert.deepEqual(all.map((p) => p.listing_id), ['lst_a', 'lst_b', 'lst_lead']);
  assert.deepEqual(await findParticipant(d.ex, 'ses_p', 'lst_lead'), { listing_id: 'lst_lead', role: 'lead', status: 'joined', byo: false, invited_at: NOW, joined_at: NOW });
  assert.equal(await findParticipant(d.ex, 'ses_p', 'lst_none'), undefined);
  assert.equal(await countParticipants(d.ex, 'ses_p'), 3);
  assert.equal(await countParticipants(d.ex, 'ses_none'), 0);
  const many = await participantsOfMany(d.ex, ['ses_p', 'ses_q', 'ses_none']);
  assert.deepEqual(many.get('ses_p'), all);
  assert.deepEqual(many.get('ses_q')?.map((p) => p.listing_id), ['lst_lead']);
  assert.deepEqual(many.get('ses_none'), []);
  assert.equal((await participantsOfMany(d.ex, [])).size, 0);
});
