// insertMessage against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertMessage } from './insert-message.ts';

const d = migratedDbPerFile();

test('stores the message under its session; an id is used once', async () => {
  const m = { id: 'msg_1', from_listing_id: 'lst_a', body: 'hello', created_at: '2026-11-01T12:00:00.000Z' };
  await insertMessage(d.ex, 'ses_m', m);
  assert.deepEqual(await d.sql.selectFrom('collab_messages').selectAll().execute(), [{ ...m, session_id: 'ses_m' }]);
  await assert.rejects(insertMessage(d.ex, 'ses_m', m));
});
