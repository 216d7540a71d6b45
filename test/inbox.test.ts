// The inbox (SPEC.md 3.2): messages other domains post to a listing (through the store,
// as endorse, co-sign and collab do: test/collab-inbox.test.ts) appear at its owner's talk check-in
// (POST /api/talk with the owner token) after today's status notices, newest first, with
// next_actions that are valid tool calls (each is called over MCP), and are marked read by the
// check-in that shows them; the read-only GET /api/talk shows them to the owner only and marks
// nothing. Grace and the dormant rule keep working for claimed listings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock, DAY_MS, HOUR_MS } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { postToInbox, readInbox, type NewInboxMessage } from '../src/inbox/store.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let client: Client;

before(async () => {
  app = await startApp({ clock, env: { TALK_GRACE_DAYS: '7', SEARCH_POLL_MS: '0' } });
  const base = await app.listen();
  client = new Client({ name: 'inbox-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  await client.listTools();
});
after(async () => {
  await client?.close();
  await app?.close();
});

/** The owner token of each listing this file claimed. */
const owners = new Map<string, string>();
const publish = async (url: string, options: { claimed?: boolean } = {}) => {
  const res = await postJson(app, '/api/publish', { url });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  if (options.claimed ?? true) owners.set(id, await ownListing(app, id));
  return id;
};
const owner = (listingId: string) => asOwner(owners.get(listingId)!);
const post = (message: NewInboxMessage) => inTransaction(app.services.db.kysely, (trx) => postToInbox(trx, message, clock.now().toISOString()));
/** The owner's check-in: POST /api/talk with the owner token. */
const checkIn = async (listingId: string, body: Record<string, unknown> = {}) => {
  const res = await postJson(app, '/api/talk', { listing_id: listingId, ...body }, owner(listingId));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};

/** Every next action is a tool call the MCP door accepts as it is. */
async function assertCallable(actions: { tool: string; args: Record<string, unknown>; why: string }[]) {
  assert.ok(actions.length > 0);
  for (const a of actions) {
    assert.equal(typeof a.why, 'string');
    const r = (await client.callTool({ name: a.tool, arguments: a.args })) as { isError?: boolean; structuredContent: Record<string, unknown> };
    assert.ok(!r.isError, `${a.tool} ${JSON.stringify(a.args)}: ${JSON.stringify(r.structuredContent)}`);
  }
}

test('posted messages appear at the check-in after the status notices, newest first, with callable next_actions, and are marked read', async () => {
  const me = await publish('https://inbox-me.example.org/mcp');
  const endorser = await publish('https://inbox-endorser.example.org/mcp');
  const inviter = await publish('https://inbox-inviter.example.org/mcp');
  await post({ listing_id: me, kind: 'endorsement', from_listing_id: endorser, data: { channel: 'attraction', intensity: 5 }, text: 'Endorsed you for postgres queries.' });
  clock.advance(1000);
  await post({
    listing_id: me,
    kind: 'collab_invitation',
    from_listing_id: inviter,
    data: { workflow_id: 'wf_1', goal: 'Ship a report' },
    text: 'You are invited to a collab workflow.',
    action: { tool: 'check_status', args: { id: inviter }, why: 'Look at the inviter before joining.' },
  });
  clock.advance(1000);
  await post({ listing_id: me, kind: 'system', data: { topic: 'welcome', secret: 'dropped' }, text: 'Welcome aboard; write to ops@example.org for help.' });
  // Someone else's message is not in my inbox.
  await post({ listing_id: endorser, kind: 'system', text: 'Not for you.' });

  clock.advance(1000);
  // The read-only GET shows the messages to the owner only, and marks none of them read.
  const stranger = await getJson(app, `/api/talk?listing_id=${me}`);
  assert.equal(stranger.status, 200, JSON.stringify(stranger.body));
  assert.deepEqual(stranger.body.inbox.map((i: { source: string }) => i.source), ['status'], 'no messages for a stranger');
  const peek = await getJson(app, `/api/talk?listing_id=${me}`, owner(me));
  assert.equal(peek.status, 200, JSON.stringify(peek.body));
  assert.equal(peek.body.inbox.filter((i: { source: string; new: boolean }) => i.source === 'message' && i.new).length, 3);
  assert.equal(peek.body.unread, 3);

  const body = await checkIn(me);
  assert.equal(body.talk.mode, 'present');
  assert.deepEqual(
    body.inbox.map((i: { type: string }) => i.type),
    ['probe_pending', 'system', 'collab_invitation', 'endorsement'],
    'status notices first, then messages newest first',
  );
  const [notice, system, invite, endorsement] = body.inbox;
  assert.equal(notice.source, 'status');
  assert.equal(system.source, 'message');
  assert.equal(system.text, 'Welcome aboard; write to [email] for help.', 'emails are masked');
  assert.deepEqual(system.data, { topic: 'welcome' }, 'only whitelisted facts are kept');
  assert.equal(system.from_listing_id, null);
  assert.deepEqual(invite.data, { workflow_id: 'wf_1', goal: 'Ship a report' });
  assert.equal(endorsement.from_listing_id, endorser);
  assert.deepEqual(endorsement.data, { channel: 'attraction', intensity: 5 });
  for (const m of [system, invite, endorsement]) {
    assert.match(m.id, /^msg_/);
    assert.equal(m.new, true);
    assert.equal(m.read_at, body.checked_in_at);
  }
  assert.ok(endorsement.at < invite.at && invite.at < system.at);
  assert.equal(body.unread_before, 3);
  assert.equal(body.marked_read, 3);
  assert.equal(body.unread_left, 0);
  assert.match(body.inbox_note, /marked read/);

  const calls = body.next_actions.map((a: { tool: string; args: unknown }) => `${a.tool} ${JSON.stringify(a.args)}`);
  assert.ok(calls.includes(`check_status ${JSON.stringify({ id: me })}`), 'the pending probe: look at the status');
  assert.ok(calls.includes(`check_status ${JSON.stringify({ id: inviter })}`), 'the poster\'s suggested call');
  assert.ok(calls.includes(`check_status ${JSON.stringify({ id: endorser })}`), 'an endorsement: look at the endorser');
  assert.equal(new Set(calls).size, calls.length, 'no call twice');
  await assertCallable(body.next_actions);

  // Marked read: the next check-in shows them as read, and unread_only shows none.
  clock.advance(HOUR_MS);
  const again = await checkIn(me);
  const messages = again.inbox.filter((i: { source: string }) => i.source === 'message');
  assert.equal(messages.length, 3);
  assert.ok(messages.every((m: { new: boolean; read_at: string }) => m.new === false && m.read_at === body.checked_in_at));
  assert.equal(again.unread_before, 0);
  assert.equal(again.marked_read, 0);
  const unread = await checkIn(me, { unread_only: '1' });
  assert.equal(unread.inbox.filter((i: { source: string }) => i.source === 'message').length, 0);

  // A new message is the only unread one; limit bounds what is shown (and marked).
  await post({ listing_id: me, kind: 'co_sign', from_listing_id: endorser, data: { mutual: true }, text: 'Co-signed your founding listing.' });
  await post({ listing_id: me, kind: 'connector', data: { day: '2026-11-01', refill_granted: true, events: ['improve_kernel'] }, text: 'Picked as the connector partner.' });
  const one = await checkIn(me, { unread_only: 'true', limit: 1 });
  const shown = one.inbox.filter((i: { source: string }) => i.source === 'message');
  assert.deepEqual(shown.map((m: { type: string }) => m.type), ['connector']);
  assert.deepEqual(shown[0].data, { day: '2026-11-01', refill_granted: true, events: ['improve_kernel'] });
  assert.equal(one.unread_before, 2);
  assert.equal(one.marked_read, 1);
  assert.equal(one.unread_left, 1);
  const rest = await checkIn(me, { unread_only: '1' });
  assert.deepEqual(rest.inbox.filter((i: { source: string }) => i.source === 'message').map((m: { type: string }) => m.type), ['co_sign']);
  await assertCallable(rest.next_actions);
  // The store reads the same way other domains will.
  const stored = await readInbox(app.services.db.kysely, me, { limit: 2 });
  assert.deepEqual(stored.map((m) => m.kind), ['connector', 'co_sign']);
  assert.equal((await readInbox(app.services.db.kysely, me, { unreadOnly: true })).length, 0);
});

test('message text is cleaned and capped; a malformed suggested call is dropped for the default one', async () => {
  const me = await publish('https://inbox-clean.example.org/mcp');
  const msg = await post({ listing_id: me, kind: 'endorsement', from_listing_id: 'lst_other', text: `line\u0000one\n${'x'.repeat(400)}`, action: { tool: 'Not A Tool!', args: {}, why: 'x' } });
  assert.equal(msg.text.length, 280);
  assert.ok(msg.text.startsWith('line one '));
  assert.equal(msg.action, null);
  const body = await checkIn(me);
  const calls = body.next_actions.map((a: { tool: string; args: unknown }) => `${a.tool} ${JSON.stringify(a.args)}`);
  assert.ok(calls.includes(`check_status ${JSON.stringify({ id: 'lst_other' })}`));
});

test('a Live listing in its grace window sees the days left; a failed one is told to republish (a callable call)', async () => {
  clock.set('2026-11-05T00:00:00.000Z');
  const live = await publish('https://inbox-live.example.org/mcp');
  await setListingState(app, live, { lane: 'active', live_since: '2026-11-05T00:00:00.000Z', checks_clean: 1, probe_ok: 1, probe_score: 80 }, '2026-11-05T00:00:00.000Z');
  clock.advance(2.5 * DAY_MS);
  const body = await checkIn(live);
  assert.equal(body.talk.mode, 'present');
  assert.equal(body.grace_days_left, 5);
  const grace = body.inbox.find((i: { type: string }) => i.type === 'grace');
  assert.match(grace.text, /^5 day\(s\) of onboarding grace left/);
  assert.equal(body.inbox.length, 1, 'Live, present and no messages: only the grace notice');
  await assertCallable(body.next_actions);

  const failed = await publish('https://inbox-failed.example.org/mcp');
  await setListingState(app, failed, { lane: 'failed', lane_reason: 'unreachable' }, clock.now().toISOString());
  const f = await checkIn(failed);
  assert.equal(f.inbox[0].type, 'probe_failed');
  assert.deepEqual(f.next_actions[0], { tool: 'list_yourself', args: { url: 'https://inbox-failed.example.org/mcp' }, why: 'Republish after the fix: the listing is probed again.' });
});

test('presence still feeds the dormant rule: a claimed listing without a check-in after grace -> dormant, and the check-in says so; an unclaimed one stays', async () => {
  clock.set('2026-12-01T00:00:00.000Z');
  const quiet = await publish('https://inbox-quiet.example.org/mcp');
  const unclaimed = await publish('https://inbox-unclaimed.example.org/mcp', { claimed: false });
  for (const id of [quiet, unclaimed]) {
    await setListingState(app, id, { lane: 'active', live_since: '2026-12-01T00:00:00.000Z', checks_clean: 1, probe_ok: 1, probe_score: 70, probed_at: '2026-12-01T00:00:00.000Z' }, '2026-12-01T00:00:00.000Z');
    // Only the sweep runs: the listing's probe job (which would fail offline) is not due.
    await app.sql.updateTable('jobs').set({ due_at: '2027-06-01T00:00:00.000Z' }).where('id', '=', `probe:${id}`).execute();
  }
  clock.advance(8 * DAY_MS);
  await app.jobs.tick();
  await app.jobs.idle();
  const status = await getJson(app, `/api/listings/status?id=${quiet}`);
  assert.equal(status.body.lane, 'dormant');
  assert.equal(status.body.lane_reason, 'talk_absent');
  // Nobody can check in for an unclaimed listing: its probes are its presence.
  const stays = await getJson(app, `/api/listings/status?id=${unclaimed}`);
  assert.equal(stays.body.lane, 'active');
  const look = await getJson(app, `/api/talk?listing_id=${unclaimed}`);
  assert.deepEqual([look.body.talk.required, look.body.talk.active, look.body.talk.mode], [false, true, 'present']);
  assert.ok(look.body.inbox.some((i: { type: string }) => i.type === 'unclaimed'));
  const body = await checkIn(quiet);
  assert.equal(body.inbox[0].type, 'dormant');
  assert.equal(body.grace_days_left, null);
  await assertCallable(body.next_actions);
});

test('talk input errors: bad limit, bad unread_only, unknown listing; a check-in without its own owner token', async () => {
  const me = await publish('https://inbox-errors.example.org/mcp');
  for (const [query, field] of [
    [`listing_id=${me}&limit=0`, 'limit'],
    [`listing_id=${me}&limit=101`, 'limit'],
    [`listing_id=${me}&limit=two`, 'limit'],
    [`listing_id=${me}&unread_only=yes`, 'unread_only'],
  ] as const) {
    const res = await getJson(app, `/api/talk?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.error.field, field, query);
  }
  const unknown = await getJson(app, '/api/talk?listing_id=lst_nobody');
  assert.equal(unknown.status, 404);
  // The check-in: the same field errors, and only with the listing's own owner token.
  const other = await publish('https://inbox-errors-other.example.org/mcp');
  for (const [body, field] of [
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ unread_only: 'yes' }, 'unread_only'],
  ] as const) {
    const res = await postJson(app, '/api/talk', { listing_id: me, ...body }, owner(me));
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.field, field, JSON.stringify(body));
  }
  const anonymous = await postJson(app, '/api/talk', { listing_id: me });
  assert.deepEqual([anonymous.status, anonymous.body.error.code], [401, 'owner_token_required']);
  const mismatch = await postJson(app, '/api/talk', { listing_id: me }, owner(other));
  assert.deepEqual([mismatch.status, mismatch.body.error.code], [403, 'token_mismatch']);
  assert.equal((await postJson(app, '/api/talk', { listing_id: 'lst_nobody' }, owner(me))).status, 404);
  const info = await getJson(app, '/api/talk');
  assert.equal(info.status, 200);
  await assertCallable(info.body.next_actions);
});
