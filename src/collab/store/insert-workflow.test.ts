// insertWorkflow against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertWorkflow } from './insert-workflow.ts';
import { wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test('stores the workflow and a member row for the lead and each partner', async () => {
  await insertWorkflow(d.ex, wf('wf_1', [{ listing_id: 'lst_a', role: 'writer' }, { listing_id: 'lst_b', role: 'critic' }]));
  const row = await d.sql.selectFrom('collab_workflows').selectAll().where('id', '=', 'wf_1').executeTakeFirstOrThrow();
  assert.equal(row.owner_subject, 'sub_lead');
  assert.deepEqual(JSON.parse(row.steps), wf('x').steps);
  const members = await d.sql.selectFrom('collab_workflow_members').select(['listing_id', 'role']).where('workflow_id', '=', 'wf_1').orderBy('listing_id').execute();
  assert.deepEqual(members, [
    { listing_id: 'lst_a', role: 'writer' },
    { listing_id: 'lst_b', role: 'critic' },
    { listing_id: 'lst_lead', role: 'lead' },
  ]);
});

test('a workflow id is stored once', async () => {
  await insertWorkflow(d.ex, wf('wf_2'));
  await assert.rejects(insertWorkflow(d.ex, wf('wf_2')));
});
