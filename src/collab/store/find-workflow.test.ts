// findWorkflow and lockWorkflow against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { insertWorkflow } from './insert-workflow.ts';
import { findWorkflow, lockWorkflow } from './find-workflow.ts';
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

test('reads back the workflow as stored, plain or locked', async () => {
  await insertWorkflow(d.ex, wf('wf_f'));
  assert.deepEqual(await findWorkflow(d.ex, 'wf_f'), wf('wf_f'));
  assert.deepEqual(await d.store.db.kysely.transaction().execute((trx) => lockWorkflow(trx, 'wf_f')), wf('wf_f'));
  assert.equal(await findWorkflow(d.ex, 'wf_none'), undefined);
  assert.equal(await d.store.db.kysely.transaction().execute((trx) => lockWorkflow(trx, 'wf_none')), undefined);
});
