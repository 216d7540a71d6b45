// workflowsOfListing against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertWorkflow } from './insert-workflow.ts';
import { workflowsOfListing } from './workflows-of-listing.ts';
import { wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test("a listing's workflows, newest first, with its role, up to the limit", async () => {
  await insertWorkflow(d.ex, wf('wf_old', [{ listing_id: 'lst_x', role: 'writer' }], '2026-11-01T00:00:00.000Z'));
  await insertWorkflow(d.ex, wf('wf_new', [{ listing_id: 'lst_x', role: 'critic' }], '2026-11-02T00:00:00.000Z'));
  await insertWorkflow(d.ex, wf('wf_other', [{ listing_id: 'lst_y', role: 'writer' }]));
  const mine = await workflowsOfListing(d.ex, 'lst_x', 10);
  assert.deepEqual(mine.map((w) => [w.workflow_id, w.role]), [['wf_new', 'critic'], ['wf_old', 'writer']]);
  assert.deepEqual(mine[0], { ...wf('wf_new', [{ listing_id: 'lst_x', role: 'critic' }], '2026-11-02T00:00:00.000Z'), role: 'critic' });
  assert.equal((await workflowsOfListing(d.ex, 'lst_x', 1)).length, 1);
  assert.equal((await workflowsOfListing(d.ex, 'lst_lead', 10)).every((w) => w.role === 'lead'), true);
  assert.deepEqual(await workflowsOfListing(d.ex, 'lst_none', 10), []);
});
