// listSessions and sessionsOfWorkflows against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { moveSession } from './move-session.ts';
import { listSessions, sessionsOfWorkflows } from './list-sessions.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test('sessions by participant and/or state, newest first; per workflow', async () => {
  await insertSession(d.ex, wf('wf_1', [{ listing_id: 'lst_x', role: 'writer' }]), 'ses_1', '2026-11-01T01:00:00.000Z');
  await insertSession(d.ex, wf('wf_1', [{ listing_id: 'lst_x', role: 'writer' }]), 'ses_2', '2026-11-01T02:00:00.000Z');
  await insertSession(d.ex, wf('wf_2', [{ listing_id: 'lst_y', role: 'writer' }]), 'ses_3', '2026-11-01T03:00:00.000Z');
  await moveSession(d.ex, 'ses_1', ['open'], 'closed', NOW);
  const ids = (rows: { session_id: string }[]) => rows.map((s) => s.session_id);
  assert.deepEqual(ids(await listSessions(d.ex, {}, 10)), ['ses_3', 'ses_2', 'ses_1']);
  assert.deepEqual(ids(await listSessions(d.ex, { listing_id: 'lst_x' }, 10)), ['ses_2', 'ses_1']);
  assert.deepEqual(ids(await listSessions(d.ex, { listing_id: 'lst_x', state: 'closed' }, 10)), ['ses_1']);
  assert.deepEqual(ids(await listSessions(d.ex, { state: 'open' }, 1)), ['ses_3']);
  const byWorkflow = await sessionsOfWorkflows(d.ex, ['wf_1', 'wf_none']);
  assert.deepEqual(ids(byWorkflow.get('wf_1') ?? []), ['ses_2', 'ses_1']);
  assert.deepEqual(byWorkflow.get('wf_none'), []);
  assert.equal((await sessionsOfWorkflows(d.ex, [])).size, 0);
});
