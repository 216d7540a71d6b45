// countMessages and recentMessages against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertMessage } from './insert-message.ts';
import { countMessages, recentMessages } from './read-messages.ts';

const d = migratedDbPerFile();

test('counts and returns the latest messages, oldest first', async () => {
  for (const i of [1, 2, 3]) await insertMessage(d.ex, 'ses_r', { id: `msg_${i}`, from_listing_id: 'lst_a', body: `m${i}`, created_at: `2026-11-01T12:00:0${i}.000Z` });
  await insertMessage(d.ex, 'ses_other', { id: 'msg_x', from_listing_id: 'lst_b', body: 'x', created_at: '2026-11-01T12:00:09.000Z' });
  assert.equal(await countMessages(d.ex, 'ses_r'), 3);
  assert.equal(await countMessages(d.ex, 'ses_none'), 0);
  assert.deepEqual((await recentMessages(d.ex, 'ses_r', 2)).map((m) => m.body), ['m2', 'm3']);
  assert.deepEqual(Object.keys((await recentMessages(d.ex, 'ses_r', 1))[0] ?? {}).sort(), ['body', 'created_at', 'from_listing_id', 'id']);
  assert.deepEqual(await recentMessages(d.ex, 'ses_none', 5), []);
});
