// saveActiveSnapshot against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { saveActiveSnapshot } from './save-active-snapshot.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const d = migratedDbPerFile();

test('keeps the order at a position once: a second save of it changes nothing', async () => {
  await saveActiveSnapshot(d.ex, 7, { agent: ['a', 'b'], mcp: ['m'] }, NOW);
  await saveActiveSnapshot(d.ex, 7, { agent: ['z'], mcp: [] }, '2026-11-02T00:00:00.000Z');
  const rows = await d.sql.selectFrom('active_snapshots').selectAll().execute();
  assert.deepEqual(
    rows.map((r) => ({ seq: Number(r.seq), agent: JSON.parse(r.agent_ids), mcp: JSON.parse(r.mcp_ids), at: r.created_at })),
    [{ seq: 7, agent: ['a', 'b'], mcp: ['m'], at: NOW }],
  );
});
