// Rollcall's own trouble during a probe (a bug, the database) is never recorded against the listing:
// no failure counted toward dormancy, no probe result, the lane as it was. The pool's run gives its
// lease back to try again after PROBE_BACKOFF_S, logged and counted in /metrics; `rollcall list`'s
// in-process run gives it back and reports the error.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getMetrics, logCapture, postJson, startApp, type TestApp } from './helpers/app.ts';
import { Prober, type ProbeReport } from '../src/probe/prober.ts';
import { GuardedClient } from '../src/platform/net/guarded-client.ts';
import { allowPrivatePolicy } from '../src/platform/net/address-policy.ts';
import { probeListingHere } from '../src/probe/run-here.ts';

/** A prober with a bug in it: every probe throws before any result exists. */
class BuggyProber extends Prober {
  override async probe(): Promise<ProbeReport> {
    throw new Error('a bug in the prober');
  }
}
const buggy = () => new BuggyProber(new GuardedClient({ policy: allowPrivatePolicy, userAgent: 'Rollcall-Probe/test' }), true);

const apps: TestApp[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

test(`a probe run that throws gives its lease back for later and leaves the listing as it was (${engine})`, async () => {
  const log = logCapture();
  const app = await startApp({ probing: true, prober: buggy(), logStream: log.stream, env: { LOG_LEVEL: 'error', PROBE_BACKOFF_S: '300' } });
  apps.push(app);
  const id = (await postJson(app, '/api/publish', { url: 'https://buggy-probe.example.org/mcp' })).body.listing_id as string;
  await app.jobs.idle();
  const row = await app.sql.selectFrom('listings').select(['lane', 'lane_reason']).where('id', '=', id).executeTakeFirstOrThrow();
  assert.deepEqual([row.lane, row.lane_reason], ['queued', null], 'not failed, not left probing');
  const job = await app.sql.selectFrom('jobs').select(['lease_token', 'due_at', 'attempts']).where('id', '=', `probe:${id}`).executeTakeFirstOrThrow();
  assert.equal(job.lease_token, null, 'the lease was given back');
  assert.equal(job.due_at, new Date(app.clock.now().getTime() + 300_000).toISOString(), 'tried again after PROBE_BACKOFF_S');
  assert.equal(job.attempts, 0, 'no failure counted toward dormancy');
  assert.equal(await app.sql.selectFrom('probe_state').select('listing_id').where('listing_id', '=', id).executeTakeFirst(), undefined, 'no probe result');
  assert.match(log.text(), /job failed: it runs again later/);
  assert.match((await getMetrics(app)).body, /rollcall_jobs_total\{kind="probe",result="error"\} 1/);
});

test(`rollcall list's in-process probe that throws reports the error and gives the lease back (${engine})`, async () => {
  const app = await startApp({ env: { PROBE_DELAY_S: '0' } });
  apps.push(app);
  const id = (await postJson(app, '/api/publish', { url: 'https://buggy-list.example.org/mcp' })).body.listing_id as string;
  await assert.rejects(probeListingHere(app.services, { prober: buggy(), metrics: app.services.probe.metrics }, id, new AbortController().signal), /a bug in the prober/);
  const row = await app.sql.selectFrom('listings').select('lane').where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.lane, 'queued');
  const job = await app.sql.selectFrom('jobs').select(['lease_token', 'attempts']).where('id', '=', `probe:${id}`).executeTakeFirstOrThrow();
  assert.deepEqual([job.lease_token, job.attempts], [null, 0]);
});
