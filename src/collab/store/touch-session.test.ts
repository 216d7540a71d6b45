// touchSession against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertSession } from './insert-session.ts';
import { findSession } from './find-session.ts';
import { touchSession } from './touch-session.ts';
import { NOW, wf } from '../../../test/helpers/collab-workflow.ts';

const d = migratedDbPerFile();

test('only updated_at moves', async () => {
  await insertSession(d.ex, wf('wf_t'), 'ses_t', NOW);
  const was = await findSession(d.ex, 'ses_t');
  await touchSession(d.ex, 'ses_t', '2026-11-02T00:00:00.000Z');
  assert.deepEqual(await findSession(d.ex, 'ses_t'), { ...was, updated_at: '2026-11-02T00:00:00.000Z' });
});
