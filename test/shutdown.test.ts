// Shutting an instance down cuts its probes in flight and hands their jobs back unfinished:
// no listing is marked failed because Rollcall stopped, and no job waits for a lease to expire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson } from './helpers/app.ts';
import { startFixtures } from './peers/fixtures.ts';

for (const probeThread of [false, true]) test(`closing an instance mid-probe releases the lease and applies nothing (probes ${probeThread ? 'on the probe thread' : 'on the event loop'})`, async () => {
  const fx = await startFixtures();
  const a = await startApp({ probing: true, probeThread, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '10000' } });
  const b = await startApp({ probing: true, joinStore: a.store });
  try {
    const { body } = await postJson(a, '/api/publish', { url: `${fx.base}/slow` });
    const job = () => b.sql.selectFrom('jobs').selectAll().where('id', '=', `probe:${body.id}`).executeTakeFirstOrThrow();
    for (let i = 0; i < 100 && !(await job()).lease_token; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok((await job()).lease_token, 'the probe is under way in instance A');
    // The lane is written by the claim itself: the moment the lease shows, so does `probing`.
    const lane = await b.sql.selectFrom('listings').select('lane').where('id', '=', body.id).executeTakeFirstOrThrow();
    assert.equal(lane.lane, 'probing');

    const started = Date.now();
    await a.http.close();
    assert.ok(Date.now() - started < 3000, `shutdown did not wait out the 10 s probe (${Date.now() - started} ms)`);

    const after = await job();
    assert.equal(after.lease_token, null, 'the lease was handed back');
    assert.ok(after.due_at <= new Date().toISOString(), 'still due: another instance can run it now');
    assert.equal(after.attempts, 0, 'the cut is not counted as a failure');
    const listing = await b.sql
      .selectFrom('listings')
      .leftJoin('probe_state', 'probe_state.listing_id', 'listings.id')
      .select(['listings.lane', 'probe_state.probed_at'])
      .where('listings.id', '=', body.id)
      .executeTakeFirstOrThrow();
    assert.notEqual(listing.lane, 'failed');
    assert.notEqual(listing.lane, 'probing', 'a probe cut short does not leave the lane probing');
    assert.equal(listing.probed_at, null, 'no probe result was applied');
    const history = await b.sql.selectFrom('probe_history').select('id').where('listing_id', '=', body.id).execute();
    assert.equal(history.length, 0);
  } finally {
    await b.close();
    await a.close();
    await fx.close();
  }
});
