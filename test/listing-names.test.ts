// Protected names, replayed as the attacker wore them, through the real doors: one key for every name
// a listing shows (its owner's display name, its card's name, its MCP serverInfo name and title), so
// invisible characters, fillers and letter/digit look-alikes are the same name; a claimed listing's
// name is unique in the database (two instances naming alike at once: one wins); a card that says
// another claimed listing's name, or Rollcall's or the operator's, shows its host and says why; and
// a card named first never blocks the real owner's name.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { waitForLane } from './helpers/wait.ts';
import { startModernMcp, type Peer } from './peers/mcp-servers.ts';
import { newClaimSpots } from './peers/claim-spots.ts';

const ENV = { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '3000', PROBE_RATE_PER_MIN: '0', OPERATOR_NAME: 'Acme Registry Ops' };
let app: TestApp;
const closing: { close(): Promise<void> }[] = [];
before(async () => {
  app = await startApp({ probing: true, env: ENV });
  closing.push(app);
});
after(async () => {
  for (const c of closing.reverse()) await c.close();
});

let n = 0;
/** A listing on a host of its own, claimed; returns its id and owner token. */
async function claimed(): Promise<{ id: string; token: string }> {
  const res = await postJson(app, '/api/publish', { url: `https://names-${++n}.example.org/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { id: res.body.listing_id, token: await ownListing(app, res.body.listing_id) };
}

const rename = (on: TestApp, l: { id: string; token: string }, name: string) =>
  on.http.inject({ method: 'PATCH', url: `/api/listings/${l.id}`, headers: { 'content-type': 'application/json', ...asOwner(l.token) }, payload: { name } });

/** A real MCP server on its own loopback address whose serverInfo says `info`, listed and probed to Live. */
async function card(host: string, info: { name: string; title?: string }): Promise<{ id: string; peer: Peer; host: string }> {
  const spots = newClaimSpots();
  const peer = await startModernMcp({ host, info, claims: spots });
  closing.push(peer);
  const id = (await postJson(app, '/api/publish', { url: peer.url })).body.listing_id as string;
  const status = await waitForLane(app, id, ['active', 'failed']);
  assert.equal(status.lane, 'active', JSON.stringify(status));
  return { id, peer, host: new URL(peer.url).host };
}

const status = async (id: string) => (await getJson(app, `/api/listings/status?id=${id}`)).body;

test(`look-alikes of an owner's name are the same name: soft hyphens, word joiners, fillers, braille blanks and letter/digit swaps (${engine})`, async () => {
  const holder = await claimed();
  assert.equal((await rename(app, holder, 'Tide Tables')).statusCode, 200);
  const other = await claimed();
  const lookAlikes = ['Tide\u00adTables', 'Tide\u2060Tables', 'Ti\u200dde Tables', 'Tide Tables\u3164', 'Tide\u2800Tables', 'Tide\u115fTables', 'TIDE TABLES', 'TIde TabIes', 'T1de Tab1es', 'Tide Tab|es', 'Tid\u0435 T\u0430bles', 'Ｔｉｄｅ Tables'];
  for (const name of lookAlikes) {
    const r = await rename(app, other, name);
    assert.deepEqual([r.statusCode, r.json().error?.code], [409, 'name_taken'], JSON.stringify(name));
  }
  assert.equal((await rename(app, other, 'Tide Charts')).statusCode, 200, 'another name is free');
  // Rollcall's name and its operator's (OPERATOR_NAME) may not be worn, alone or among other words.
  for (const name of ['Rollcall', 'RoIlcall', 'Ro1lcall', 'Roll\u00adcall', 'Rollcall Security Team', 'Acme Registry Ops', 'acme registry-ops support']) {
    const r = await rename(app, other, name);
    assert.deepEqual([r.statusCode, r.json().error?.code], [409, 'name_taken'], name);
  }
  assert.equal((await status(other.id)).name, 'Tide Charts');
});

test(`a card that says another claimed listing's name, or Rollcall's, shows its host and says why; a card named first never blocks the owner (${engine})`, async () => {
  const owner = await claimed();
  assert.equal((await rename(app, owner, 'Weather Now Pro')).statusCode, 200);
  // Its serverInfo title is the protected name: the listing shows its host.
  const byTitle = await card('127.0.0.21', { name: 'weather-clone', title: 'Weather  Now  Pro' });
  const s1 = await status(byTitle.id);
  assert.equal(s1.name, byTitle.host);
  assert.equal(s1.name_withheld.name, 'Weather Now Pro');
  assert.match(s1.name_withheld.why, /another claimed listing, or Rollcall, is named/);
  const page = await app.http.inject({ method: 'GET', url: `/l/${byTitle.id}` });
  assert.match(page.body, /Its card says <q>Weather Now Pro<\/q>, which is not shown/);
  // Its serverInfo name is the protected name, under another title: withheld too.
  const byName = await card('127.0.0.22', { name: 'WeatherNowPro', title: 'A Friendly Forecast' });
  assert.equal((await status(byName.id)).name, byName.host);
  // A card that says Rollcall.
  const rollcall = await card('127.0.0.23', { name: 'rollcall-official', title: 'Rollcall Official Support' });
  assert.equal((await status(rollcall.id)).name, rollcall.host);
  // A card named first: the real owner's name is still its own, and the card then shows its host.
  const first = await card('127.0.0.24', { name: 'harbor', title: 'Harbor Lights' });
  assert.equal((await status(first.id)).name, 'Harbor Lights');
  const real = await claimed();
  assert.equal((await rename(app, real, 'Harbor Lights')).statusCode, 200);
  assert.equal((await status(real.id)).name, 'Harbor Lights');
  assert.equal((await status(first.id)).name, first.host);
  const found = await getJson(app, `/api/listings/active?limit=1000`);
  assert.deepEqual(found.body.mcps.filter((m: any) => m.name === 'Harbor Lights' && m.id !== real.id), [], 'no other listing on the active list wears it');
});

test(`a listing claimed with a card that says an earlier claim's name shows its host: the earlier claim keeps its name (${engine})`, async () => {
  const earlier = await claimed();
  assert.equal((await rename(app, earlier, 'Lighthouse Keeper')).statusCode, 200);
  const spots = newClaimSpots();
  const peer = await startModernMcp({ host: '127.0.0.25', info: { name: 'keeper', title: 'Lighthouse Keeper' }, claims: spots });
  closing.push(peer);
  const asked = (await postJson(app, '/api/listings/claim', { url: peer.url })).body;
  spots.file = `${asked.proof}\n`;
  const done = await postJson(app, '/api/listings/claim/verify', { claim_id: asked.claim_id });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  const later = await waitForLane(app, done.body.listing_id, ['active', 'failed']);
  assert.equal(later.name, new URL(peer.url).host);
  assert.equal((await status(earlier.id)).name, 'Lighthouse Keeper');
  // Its owner may still choose a name of its own.
  assert.equal((await rename(app, { id: done.body.listing_id, token: done.body.owner_token }, 'Keeper of Lights')).statusCode, 200);
  assert.equal((await status(done.body.listing_id)).name, 'Keeper of Lights');
});

test(`two instances naming two listings alike at once: exactly one wins, every round (${engine})`, async () => {
  const two = await startApp({ joinStore: app.store, env: ENV });
  closing.push(two);
  const a = await claimed();
  const b = await claimed();
  for (let round = 0; round < 10; round++) {
    const name = `Race Name ${round}`;
    const [ra, rb] = await Promise.all([rename(app, a, name), rename(two, b, name.toUpperCase())]);
    assert.deepEqual([ra.statusCode, rb.statusCode].sort(), [200, 409], `round ${round}: ${ra.statusCode} ${rb.statusCode}`);
  }
  const held = await app.sql.selectFrom('listing_names').select(['name_key', 'listing_id']).where('listing_id', 'in', [a.id, b.id]).execute();
  assert.equal(new Set(held.map((h) => h.name_key)).size, held.length);
});
