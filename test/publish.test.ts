import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, recordingScheduler, type TestApp } from './helpers/app.ts';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

test('publishing a new MCP URL lists it, queued for its probe, with every listing field of this stage', async () => {
  const res = await postJson(app, '/api/publish', { url: 'https://mcp.example.org/mcp', contact_email: 'owner@example.org', source: 'test', name: 'Example MCP' });
  assert.equal(res.status, 200);
  const b = res.body;
  assert.equal(b.ok, true);
  assert.equal(b.outcome, 'listed');
  assert.equal(b.already_listed, false);
  assert.match(b.listing_id, /^lst_[0-9a-z]{20}$/);
  assert.equal(b.id, b.listing_id);
  assert.equal(b.kind, 'mcp');
  assert.equal(b.name, 'Example MCP');
  assert.equal(b.lane, 'queued', 'Live only after a real probe');
  assert.equal(b.checks_clean, false);
  assert.deepEqual(b.probe, { ok: false, handshake: 'pending', score: null, probed_at: null, target: 'https://mcp.example.org/mcp', age_hours: null, context_cost: null, card_signature: null });
  assert.equal(b.remote_url, 'https://mcp.example.org/mcp');
  assert.equal(b.agent_card_url, undefined);
  assert.equal(b.category_id, 'other', 'no probe has seen it yet');
  assert.equal(typeof b.category_label, 'string');
  assert.equal(b.badge, 'never_demoed');
  assert.equal(b.rank_delta, -15);
  assert.deepEqual([b.demoed, b.feedbacked, b.founding_verified], [false, false, false]);
  // The ready demo request and the deal are the active list's (SPEC 2.2); the publish answer
  // points at the demo with take_demo_get and holds no curl, so nothing in it is said twice.
  assert.equal(b.take_demo, undefined);
  assert.equal(b.deal, undefined);
  assert.equal(b.take_demo_get, `http://localhost:8080/api/products/demo?listing_id=${b.id}`);
  assert.ok(JSON.stringify(b).length <= 4096, `${JSON.stringify(b).length} bytes`);
  assert.doesNotMatch(JSON.stringify(b), /curl/);
  assert.equal(b.complete_founding_path.tool, 'complete_founding_path');
  assert.deepEqual(Object.keys(b.complete_founding_path.arguments).sort(), ['agent_name', 'audience', 'body', 'listing_id', 'rating']);
  assert.equal(b.complete_founding_path.arguments.audience, 'mcp');
  // The verdict is never suggested: the caller writes its own rating and body.
  assert.deepEqual([b.complete_founding_path.arguments.rating, b.complete_founding_path.arguments.body], [null, null]);
  assert.deepEqual(b.complete_founding_path.needs, ['rating', 'body', 'owner_token']);
  assert.doesNotMatch(JSON.stringify(b), /"rating":5/);
  assert.equal(b.activation.stage, 'list');
  assert.match(b.next, /^check_status \{"id":"lst_/);
  // Unclaimed: nobody can check in for it yet, so its probes are its presence.
  assert.equal(b.claimed, false);
  assert.deepEqual([b.talk.required, b.talk.active, b.talk.mode], [false, true, 'present']);
  assert.match(b.talk.reason, /^unclaimed: /);
  assert.equal(b.status_url, `http://localhost:8080/api/listings/status?id=${b.id}`);
  assert.ok(!JSON.stringify(b).includes('owner@example.org'), 'contact_email is never shown');
  // A new listing's view is built without reading its (empty) parts: the same view a status read gives.
  const status = (await app.http.inject({ url: `/api/listings/status?id=${b.id}` })).json();
  const { ok: _ok, outcome: _outcome, already_listed: _known, status_url: _url, reprobe: _reprobe, ...view } = b;
  for (const [key, value] of Object.entries(view)) assert.deepEqual(status[key], value, key);
});

test('an agent card URL is guessed as an agent', async () => {
  const byPath = await postJson(app, '/api/publish', { url: 'https://agents.example.org/.well-known/agent-card.json' });
  assert.equal(byPath.body.kind, 'agent');
  assert.equal(byPath.body.agent_card_url, 'https://agents.example.org/.well-known/agent-card.json');
  assert.equal(byPath.body.name, 'agents.example.org', 'no card and no name yet: the host stands in');

  const byField = await postJson(app, '/api/publish', { agent_card_url: 'https://other.example.org/card', url: 'https://ignored.example.org/mcp' });
  assert.equal(byField.body.kind, 'agent', 'agent_card_url wins over url');
  assert.equal(byField.body.url, 'https://other.example.org/card');
});

test('republishing a known URL (even written differently) queues a re-probe and changes nothing else', async () => {
  const first = await postJson(app, '/api/publish', { url: 'https://Dup.Example.ORG:443/path?q=1#frag', name: 'First Name', contact_email: 'first@example.org' });
  assert.equal(first.body.outcome, 'listed');
  assert.equal(first.body.url, 'https://dup.example.org/path?q=1');
  const again = await postJson(app, '/api/publish', { url: 'HTTPS://dup.example.org/path?q=1', name: 'Second Name', contact_email: 'second@example.org' });
  assert.equal(again.status, 200);
  assert.equal(again.body.outcome, 'queued');
  assert.equal(again.body.listing_id, first.body.listing_id);
  assert.equal(again.body.name, 'First Name');
  const row = await app.sql.selectFrom('listings').selectAll().where('id', '=', first.body.id).executeTakeFirstOrThrow();
  assert.equal(row.contact_email, 'first@example.org', 'contact_email is kept from the first publish');
  // Path and query are kept as given: a different path is a different listing.
  const other = await postJson(app, '/api/publish', { url: 'https://dup.example.org/Path?q=1' });
  assert.equal(other.body.outcome, 'listed');
  assert.notEqual(other.body.id, first.body.id);
});

test('IDN hosts become punycode and default ports are dropped', async () => {
  const res = await postJson(app, '/api/publish', { url: 'http://bücher.example:80/mcp' });
  assert.equal(res.body.url, 'http://xn--bcher-kva.example/mcp');
});

test('concurrent publishes of one URL converge on a single listing', async () => {
  const url = 'https://race.example.org/mcp';
  const results = await Promise.all(Array.from({ length: 12 }, () => postJson(app, '/api/publish', { url })));
  assert.ok(results.every((r) => r.status === 200));
  assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
  assert.equal(results.filter((r) => r.body.outcome === 'listed').length, 1);
  const rows = await app.sql.selectFrom('listings').select('id').where('url', '=', url).execute();
  assert.equal(rows.length, 1);
});

test('every publish writes the change feed in the same transaction', async () => {
  const before = await app.sql.selectFrom('changes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const res = await postJson(app, '/api/publish', { url: 'https://feed.example.org/mcp' });
  const after = await app.sql.selectFrom('changes').selectAll().where('entity_id', '=', res.body.id).execute();
  assert.equal(after.length, 1);
  assert.equal(after[0]!.op, 'upsert');
  const total = await app.sql.selectFrom('changes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(total.n), Number(before.n) + 1);
  // A duplicate changes nothing, so it feeds nothing.
  await postJson(app, '/api/publish', { url: 'https://feed.example.org/mcp' });
  const still = await app.sql.selectFrom('changes').selectAll().where('entity_id', '=', res.body.id).execute();
  assert.equal(still.length, 1);
});

test('publish wakes the probe scheduler for the listing', async () => {
  const probes = recordingScheduler();
  const own = await startApp({ probes });
  try {
    const first = await postJson(own, '/api/publish', { url: 'https://wake.example.org/mcp' });
    const again = await postJson(own, '/api/publish', { url: 'https://wake.example.org/mcp' });
    assert.deepEqual(probes.woken, [first.body.id, again.body.id]);
  } finally {
    await own.close();
  }
});

test('bad publish input gets a clear 4xx in the error shape, never a 500', async () => {
  const cases: { name: string; payload?: string; contentType?: string; status: number; code: string; field?: string }[] = [
    { name: 'malformed JSON', payload: '{"url": ', status: 400, code: 'invalid_json' },
    { name: 'missing body', status: 400, code: 'body_required' },
    { name: 'empty JSON body', payload: '', status: 400, code: 'body_required' },
    { name: 'JSON null', payload: 'null', status: 400, code: 'body_required' },
    { name: 'array body', payload: '[]', status: 400, code: 'invalid_input' },
    { name: 'string body', payload: '"https://x.example"', status: 400, code: 'invalid_input' },
    { name: 'no url', payload: '{}', status: 400, code: 'invalid_input', field: 'url' },
    { name: 'url of wrong type', payload: '{"url": 42}', status: 400, code: 'invalid_input', field: 'url' },
    { name: 'bad email', payload: '{"url": "https://bad-input.example/mcp", "contact_email": "nope"}', status: 400, code: 'invalid_input', field: 'contact_email' },
    { name: 'relative url', payload: '{"url": "/mcp"}', status: 400, code: 'invalid_url', field: 'url' },
    { name: 'ftp url', payload: '{"url": "ftp://bad-input.example/x"}', status: 400, code: 'invalid_url', field: 'url' },
    { name: 'javascript url', payload: '{"url": "javascript:alert(1)"}', status: 400, code: 'invalid_url', field: 'url' },
    { name: 'credentials in url', payload: '{"url": "https://user:pw@a.example/mcp"}', status: 400, code: 'invalid_url', field: 'url' },
    { name: 'blank agent_card_url', payload: '{"agent_card_url": "   "}', status: 400, code: 'invalid_url', field: 'agent_card_url' },
    { name: 'url too long', payload: JSON.stringify({ url: `https://bad-input.example/${'x'.repeat(2100)}` }), status: 400, code: 'invalid_input', field: 'url' },
    { name: 'name too long', payload: JSON.stringify({ url: 'https://bad-input.example/mcp', name: 'n'.repeat(121) }), status: 400, code: 'invalid_input', field: 'name' },
    { name: 'text/plain', payload: 'url=https://bad-input.example', contentType: 'text/plain', status: 415, code: 'unsupported_media_type' },
    { name: 'form encoded', payload: 'url=https://bad-input.example', contentType: 'application/x-www-form-urlencoded', status: 415, code: 'unsupported_media_type' },
    { name: '2 MB body', payload: JSON.stringify({ url: 'https://bad-input.example/mcp', name: 'x'.repeat(2 * 1024 * 1024) }), status: 413, code: 'payload_too_large' },
  ];
  for (const c of cases) {
    const res = await app.http.inject({
      method: 'POST',
      url: '/api/publish',
      ...(c.payload !== undefined ? { payload: c.payload, headers: { 'content-type': c.contentType ?? 'application/json' } } : {}),
    });
    assert.equal(res.statusCode, c.status, `${c.name}: ${res.body}`);
    const body = res.json();
    assert.equal(body.ok, false, c.name);
    assert.equal(body.error.code, c.code, `${c.name}: ${res.body}`);
    assert.equal(typeof body.error.message, 'string');
    assert.equal(body.request_id, res.headers['x-request-id'], `${c.name}: the body quotes the request id`);
    if (c.field) assert.equal(body.error.field, c.field, c.name);
  }
  const count = await app.sql.selectFrom('listings').select('id').where('url', 'like', '%bad-input.example%').execute();
  assert.equal(count.length, 0, 'nothing was stored from bad input');
});

test('invalid input lists every failing field', async () => {
  const res = await postJson(app, '/api/publish', { url: 7, contact_email: 'x', source: ['not', 'text'] });
  assert.equal(res.status, 400);
  const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
  assert.deepEqual(fields, ['contact_email', 'source', 'url']);
});
