// findWorkflow and lockWorkflow against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertWorkflow } from './insert-workflow.ts';
import { findWorkflow, lockWorkflow } from './find-workflow.ts';
import { wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test('reads back the workflow as stored, plain or locked', async () => {
  await insertWorkflow(d.ex, wf('wf_f'));
  assert.deepEqual(await findWorkflow(d.ex, 'wf_f'), wf('wf_f'));
  assert.deepEqual(await d.store.db.kysely.transaction().execute((trx) => lockWorkflow(trx, 'wf_f')), wf('wf_f'));
  assert.equal(await findWorkflow(d.ex, 'wf_none'), undefined);
  assert.equal(await d.store.db.kysely.transaction().execute((trx) => lockWorkflow(trx, 'wf_none')), undefined);
});
