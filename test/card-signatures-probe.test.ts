// Rollcall checks the signatures of the agent cards it probes (A2A 1.0.1 section 8.4.3) and shows
// the verdict, `card_signature`, on the status answer, the active list, search hits and the
// listing page. Real @a2a-js/sdk agents serve a card the SDK signed (valid), one changed after
// signing (tampered), one whose key is on another origin (never fetched), and an unsigned one, in
// both card shapes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

const ENV = { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', SEARCH_POLL_MS: '0' };
let app: TestApp;

const CASES = [
  { signing: 'valid', shape: '1.0', host: '127.0.0.21', name: 'Signed Valid Courier', expected: 'valid' },
  { signing: 'valid', shape: '0.3', host: '127.0.0.22', name: 'Signed Legacy Courier', expected: 'valid' },
  { signing: 'tampered', shape: '1.0', host: '127.0.0.23', name: 'Tampered Card Courier', expected: 'invalid' },
  { signing: 'foreign_jku', shape: '1.0', host: '127.0.0.24', name: 'Foreign Key Courier', expected: 'invalid' },
  { signing: undefined, shape: '1.0', host: '127.0.0.25', name: 'Unsigned Plain Courier', expected: 'unsigned' },
] as const;

const peers = new Map<string, AgentPeer>();
const ids = new Map<string, string>();

before(async () => {
  for (const c of CASES) peers.set(c.name, await startA2aAgent({ host: c.host, shape: c.shape, name: c.name, ...(c.signing ? { signing: c.signing } : {}) }));
  app = await startApp({ probing: true, env: ENV });
  for (const c of CASES) {
    const { body } = await postJson(app, '/api/publish', { url: peers.get(c.name)!.cardUrl });
    ids.set(c.name, body.id);
  }
  for (const id of ids.values()) await waitForLane(app, id, ['active']);
  await app.services.search.poll();
});

after(async () => {
  await app?.close();
  await Promise.all([...peers.values()].map((p) => p.close()));
});

test('the status answer and the active list say whether each card is signed and its signature holds', async () => {
  const active = await getJson(app, '/api/listings/active?limit=50');
  for (const c of CASES) {
    const id = ids.get(c.name)!;
    const status = await getJson(app, `/api/listings/status?id=${id}`);
    assert.equal(status.status, 200);
    assert.equal(status.body.probe.card_signature, c.expected, `${c.name}: status`);
    assert.equal(status.body.lane, 'active', 'a card signature is shown, not required: every one of them is Live');
    const row = active.body.agents.find((l: { id: string }) => l.id === id);
    assert.equal(row?.probe.card_signature, c.expected, `${c.name}: active list`);
  }
});

test('a jku off the card origin is never fetched; a jku on it is fetched through the prober', () => {
  assert.equal(peers.get('Foreign Key Courier')!.hits.get('/.well-known/jwks.json') ?? 0, 0, 'the other origin serves the same key, but it is not read');
  assert.ok((peers.get('Signed Valid Courier')!.hits.get('/.well-known/jwks.json') ?? 0) >= 1);
  assert.equal(peers.get('Unsigned Plain Courier')!.hits.get('/.well-known/jwks.json') ?? 0, 0);
});

test('search hits carry card_signature among their trust signals', async () => {
  for (const c of CASES) {
    const found = await getJson(app, `/api/ard/search?q=${encodeURIComponent(c.name)}&kind=agent`);
    const hit = found.body.hits.find((h: { listing_id?: string }) => h.listing_id === ids.get(c.name));
    assert.ok(hit, `${c.name} is found`);
    assert.equal(hit.trust.card_signature, c.expected, `${c.name}: hit`);
  }
});

test('the listing page and the search page show the verdict', async () => {
  const words = { valid: 'signed, signature verifies', invalid: 'signed, signature does not verify', unsigned: 'not signed' } as const;
  for (const c of CASES) {
    const page = await app.http.inject({ method: 'GET', url: `/l/${ids.get(c.name)}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`<dt>Card signature</dt><dd><span class="pill[^"]*">${words[c.expected]}</span></dd>`), `${c.name}: listing page`);
  }
  const home = await app.http.inject({ method: 'GET', url: `/?q=${encodeURIComponent('Signed Valid Courier')}` });
  assert.match(home.body, /signed card/);
  const tampered = await app.http.inject({ method: 'GET', url: `/?q=${encodeURIComponent('Tampered Card Courier')}` });
  assert.match(tampered.body, /card signature fails/);
});

test('probe_clean says whether a card signature holds, and why not', async () => {
  const call = async (url: string) => {
    const res = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe_clean', arguments: { url } } } });
    return res.json().result.structuredContent;
  };
  const valid = await call(peers.get('Signed Valid Courier')!.cardUrl);
  assert.equal(valid.probe.card_signature, 'valid');
  const tampered = await call(peers.get('Tampered Card Courier')!.cardUrl);
  assert.deepEqual([tampered.probe.card_signature, tampered.probe.card_signature_detail], ['invalid', 'the signature does not verify over the card']);
  const foreign = await call(peers.get('Foreign Key Courier')!.cardUrl);
  assert.equal(foreign.probe.card_signature, 'invalid');
  assert.match(foreign.probe.card_signature_detail, /not on the card's origin/);
});
