// touchSession against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { findSession } from './find-session.ts';
import { touchSession } from './touch-session.ts';
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

test('only updated_at moves', async () => {
  await insertSession(d.ex, wf('wf_t'), 'ses_t', NOW);
  const was = await findSession(d.ex, 'ses_t');
  await touchSession(d.ex, 'ses_t', '2026-11-02T00:00:00.000Z');
  assert.deepEqual(await findSession(d.ex, 'ses_t'), { ...was, updated_at: '2026-11-02T00:00:00.000Z' });
});
