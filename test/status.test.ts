import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';

let app: TestApp;
let id: string;
before(async () => {
  app = await startApp();
  id = (await postJson(app, '/api/publish', { url: 'https://status.example.org/mcp', name: 'Status Probe Target' })).body.id;
});
after(() => app.close());

test('status by id returns the lane, the listing and the next call', async () => {
  const res = await getJson(app, `/api/listings/status?id=${id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.ok, true);
  assert.equal(res.body.listing_id, id);
  assert.equal(res.body.lane, 'queued');
  assert.equal(typeof res.body.next, 'string');
  assert.equal(res.body.next, `check_status {"id":"${id}"}`);
  assert.equal(res.body.probe.handshake, 'pending');
});

test('status by name is case-insensitive and exact', async () => {
  const res = await getJson(app, '/api/listings/status?name=status%20probe%20TARGET');
  assert.equal(res.status, 200);
  assert.equal(res.body.id, id);
  const partial = await getJson(app, '/api/listings/status?name=Status');
  assert.equal(partial.status, 404);
  assert.equal(partial.body.error.code, 'not_found');
  assert.equal(partial.body.error.field, 'name');
});

test('status errors: unknown id 404, nothing asked 400, repeated or oversized values 400', async () => {
  const unknown = await getJson(app, '/api/listings/status?id=lst_nope');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.field, 'id');
  const none = await getJson(app, '/api/listings/status');
  assert.equal(none.status, 400);
  assert.equal(none.body.error.code, 'invalid_input');
  const twice = await getJson(app, `/api/listings/status?id=${id}&id=${id}`);
  assert.equal(twice.status, 400);
  assert.equal(twice.body.error.field, 'id');
  const empty = await getJson(app, '/api/listings/status?id=');
  assert.equal(empty.status, 400);
  const long = await getJson(app, `/api/listings/status?id=${'x'.repeat(500)}`);
  assert.equal(long.status, 400);
});
