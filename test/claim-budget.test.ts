// Nobody spends a host's budget but its owner and Rollcall's own schedule, replayed as the attacker
// did through the real doors against a real MCP server on loopback that counts every request it
// gets: a stranger's storm of verifications costs the stranger (its hourly allowance, the claim's
// own bound) and reaches the host once per place per 30 seconds; the owner's verification, probes,
// liveness checks and the score of its own URL go through however the strangers spent the public
// share; with no method named, DNS is tried first; a batch of verifications is no amplifier; a
// listing page's claim spends the same allowances and limits as the API's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, testDns, type TestApp } from './helpers/app.ts';
import { asOwner } from './helpers/owners.ts';
import { waitForLane } from './helpers/wait.ts';
import { startModernMcp } from './peers/mcp-servers.ts';
import { newClaimSpots, type ClaimSpots } from './peers/claim-spots.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { hostKey } from '../src/platform/net/host-key.ts';
import { PLACE_WINDOW_MS, VERIFIES_PER_CLAIM } from '../src/owners/rules.ts';
import { addressHash } from '../src/metering/caller.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const c of closing.reverse()) await c.close();
});

async function open(clock: ManualClock, env: Record<string, string> = {}, probing = false): Promise<TestApp> {
  const app = await startApp({ clock, probing, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '3000', PROBE_HOST_PER_HOUR: '100', PROBE_RATE_PER_MIN: '0', ...env } });
  closing.push(app);
  return app;
}

/** The victim: a real MCP server on 127.0.0.1, listed and claimed as `localhost` (a name a TXT record can prove). */
async function victim(): Promise<{ url: string; spots: ClaimSpots }> {
  const spots = newClaimSpots();
  const peer = await startModernMcp({ claims: spots });
  closing.push(peer);
  return { url: peer.url.replace('127.0.0.1', 'localhost'), spots };
}

/** Spends the host's public share of the hour, as strangers' probes and scores would. */
async function spendPublicShare(app: TestApp, url: string): Promise<void> {
  for (;;) {
    try {
      await app.services.budgets.admit(hostKey(url), 'public');
    } catch {
      return;
    }
  }
}

const from = (address: string) => ({ remoteAddress: address });
async function post(app: TestApp, url: string, body: unknown, address: string, headers: Record<string, string> = {}) {
  const res = await app.http.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers }, ...from(address) });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

test(`94 verifications of one stranger's claim cost the stranger, not the host: 30 an hour, 20 a claim, each place read once in 30 seconds (${engine})`, async () => {
  const clock = new ManualClock('2026-11-05T10:00:00.000Z');
  const app = await open(clock);
  const { url, spots } = await victim();
  const stranger = '203.0.113.9';
  const claim = (await post(app, '/api/listings/claim', { url }, stranger)).body;
  const statuses: string[] = [];
  for (let i = 0; i < 94; i++) {
    const r = await post(app, '/api/listings/claim/verify', { claim_id: claim.claim_id }, stranger);
    statuses.push(`${r.status} ${r.body.error.code}`);
    if (i === 93) assert.ok(Number(r.headers['retry-after']) > 0);
  }
  const count = (s: string) => statuses.filter((x) => x === s).length;
  assert.deepEqual([count('422 proof_not_found'), count('429 claim_spent'), count('429 caller_budget')], [VERIFIES_PER_CLAIM, 30 - VERIFIES_PER_CLAIM, 94 - 30]);
  // Each place (the DNS name, the file, the server's handshake) was read once for all of them.
  assert.ok(spots.fileHits === 1 && spots.requests <= 4, `${spots.fileHits} file reads, ${spots.requests} requests in all`);
  // The host's budget was not touched by any of it: its owner's and the public share are whole.
  assert.equal(await app.services.budgets.noRoomFor(hostKey(url), 'public'), undefined);
  assert.equal(await app.sql.selectFrom('budget_counters').select('n').where('key', '=', `requests:${hostKey(url)}`).executeTakeFirst(), undefined);
});

test(`with the public share spent by strangers, the owner verifies, probes to Live, checks liveness and scores its own URL; no method named tries DNS first (${engine})`, async () => {
  const clock = new ManualClock('2026-11-05T10:00:00.000Z');
  const app = await open(clock, {}, true);
  const { url, spots } = await victim();
  await spendPublicShare(app, url);
  // A stranger scoring an unknown URL of the host is refused by the host's budget, and it cost the stranger its allowance.
  const unknownScore = await getJson(app, `/api/score?url=${encodeURIComponent(url.replace('/mcp', '/other/mcp'))}`);
  assert.deepEqual([unknownScore.status, unknownScore.body.error.code], [429, 'host_budget']);
  // The owner claims by its file: no method named, so DNS is read first (it costs the host nothing), then the file.
  const owner = '198.51.100.7';
  const claim = (await post(app, '/api/listings/claim', { url }, owner)).body;
  spots.file = `${claim.proof}\n`;
  const verified = await post(app, '/api/listings/claim/verify', { claim_id: claim.claim_id }, owner);
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  assert.deepEqual(
    verified.body.looked.map((l: any) => [l.method, l.outcome]),
    [
      ['dns_txt', 'absent'],
      ['well_known', 'found'],
    ],
  );
  const id = verified.body.listing_id as string;
  const token = verified.body.owner_token as string;
  // Its listing's probe is the owner's work: it goes Live on the share strangers cannot spend.
  const status = await waitForLane(app, id, ['active', 'failed', 'dormant']);
  assert.equal(status.lane, 'active', JSON.stringify(status));
  const checked = await post(app, '/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_liveness', arguments: { listing_id: id } } }, owner, { accept: 'application/json', ...asOwner(token) });
  assert.equal(checked.body.result.structuredContent.alive, true, JSON.stringify(checked.body));
  // The score of a URL Rollcall knows is its last check, with its age: nothing is fetched, nobody pays.
  const before = spots.requests;
  clock.advance(90_000);
  const known = await getJson(app, `/api/score?url=${encodeURIComponent(url)}`);
  assert.equal(known.status, 200, JSON.stringify(known.body));
  assert.deepEqual([known.body.from_last_check, known.body.listing_id, known.body.live_ready, known.body.age_s >= 90], [true, id, true, true]);
  assert.equal(spots.requests, before, 'the host saw no request for it');
  // Verifying with its DNS record (the owner rotates its token): dns_txt is tried first and found.
  const dns = await testDns();
  const again = (await post(app, '/api/listings/claim', { listing_id: id }, owner)).body;
  dns.txt.set('_rollcall.localhost', [again.proof]);
  clock.advance(PLACE_WINDOW_MS);
  const byDns = await post(app, '/api/listings/claim/verify', { claim_id: again.claim_id }, owner);
  assert.deepEqual(byDns.body.looked.map((l: any) => [l.method, l.outcome]), [['dns_txt', 'found']]);
});

test(`a batch of 20 verify_claim is 20 calls of the caller's own allowance and one read of each place (${engine})`, async () => {
  const clock = new ManualClock('2026-11-05T10:00:00.000Z');
  const app = await open(clock);
  const { url, spots } = await victim();
  const claim = (await postJson(app, '/api/listings/claim', { url })).body;
  const messages = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'verify_claim', arguments: { claim_id: claim.claim_id } } }));
  const res = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json' }, payload: messages });
  assert.equal(res.statusCode, 200);
  const answers = res.json() as any[];
  assert.ok(answers.every((a) => a.result.isError && a.result.structuredContent.error.code === 'proof_not_found'));
  assert.ok(spots.fileHits === 1 && spots.requests <= 4, `${spots.requests} requests to the host for 20 verifications`);
  const left = await app.sql.selectFrom('budget_counters').select('n').where('key', 'like', 'fetches:%').executeTakeFirstOrThrow();
  assert.equal(Number(left.n), 20, 'each verification is one of the caller\'s 30 an hour');
});

test(`a listing page's claim is a door to the same operations: over real HTTP its claims and checks spend the caller's allowance and the request limits, and each refusal is a page (${engine})`, async () => {
  const clock = new ManualClock('2026-11-05T10:00:00.000Z');
  const app = await open(clock, { CALLER_FETCHES_PER_HOUR: '2', RATE_LIMIT_WRITE_PER_MIN: '5' });
  const base = await app.listen();
  const { url } = await victim();
  // Listed from another address, so that this one's writes are only the claim's.
  const listed = await post(app, '/api/publish', { url }, '203.0.113.1');
  const id = listed.body.id as string;
  // A page with a form sets the browser's form cookie and holds its token.
  const form = await fetch(`${base}/list`);
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const token = /name="form_token" value="([^"]+)"/.exec(await form.text())![1]!;
  const page = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams({ form_token: token, ...fields }).toString() });
  const api = (body: unknown) => fetch(`${base}/api/listings/claim/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  // Write 1: the page's claim is claim_listing's, counted under this caller's address as the API's are.
  const started = await page(`/l/${id}/claim`, {});
  assert.equal(started.status, 200);
  const claimId = /name="claim_id" value="(clm_[^"]+)"/.exec(await started.text())![1]!;
  const made = await app.sql.selectFrom('listing_claims').select(['listing_id', 'caller']).execute();
  assert.deepEqual(made, [{ listing_id: id, caller: addressHash('127.0.0.1') }]);
  // Writes 2 and 3: a check through the API and one through the page share the caller's 2 fetches an hour.
  assert.equal((await api({ claim_id: claimId })).status, 422);
  const second = await page(`/l/${id}/claim/verify`, { claim_id: claimId });
  assert.equal(second.status, 422);
  assert.match(await second.text(), /Not yet:/);
  // Write 4: the third check, from the page, is over the caller's allowance: its page says so and when to come back.
  const spent = await page(`/l/${id}/claim/verify`, { claim_id: claimId });
  assert.equal(spent.status, 429);
  assert.equal(spent.headers.get('cache-control'), 'no-store');
  assert.ok(Number(spent.headers.get('retry-after')) > 0);
  assert.match(await spent.text(), /you have asked for 2 verifications and scores of unknown URLs this hour, the most one caller may; retry in \d+ s/);
  // Write 5: the API agrees, the allowance is one.
  const apiSpent = await api({ claim_id: claimId });
  assert.deepEqual([apiSpent.status, (await apiSpent.json()).error.code], [429, 'caller_budget']);
  // Write 6: past the write limit of 5 a minute, the page's POST is refused before it runs, as a page.
  const limited = await page(`/l/${id}/claim`, {});
  assert.equal(limited.status, 429);
  assert.match(limited.headers.get('content-type') ?? '', /^text\/html/);
  assert.ok(Number(limited.headers.get('retry-after')) > 0);
  assert.match(await limited.text(), /rate limit of 5 writes per minute reached/);
  assert.equal((await app.sql.selectFrom('listing_claims').select('caller').execute()).length, 1, 'the refused POST started no claim');
});
