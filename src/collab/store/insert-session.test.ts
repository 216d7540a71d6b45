// insertSession against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

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
