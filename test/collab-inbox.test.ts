// Collab wiring of the feedback and inbox paths, through the real doors (the MCP SDK client, HTTP): leave_feedback
// from a listing's owner with partner_listing_id or complete_collab makes a collab workflow in the
// same call (visible in list_collab_workflows); a refused workflow records no feedback either.
// Endorsements, co-signs and collab invitations (create_collab_workflow naming partners, an opened
// session) land in the addressee's inbox, shown to its owner by the talk check-in (POST /api/talk
// with the owner token) with callable next_actions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let base: string;

type Structured = Record<string, any>;
type Result = { isError?: boolean; structuredContent: Structured };

/** The owner token of every listing the test owns (seed claims each one). */
const owners = new Map<string, string>();
/** One SDK client per owner token ('' for none). */
const clients = new Map<string, Client>();

async function clientWith(token: string): Promise<Client> {
  let c = clients.get(token);
  if (!c) {
    c = new Client({ name: 'collab-inbox-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), token ? { requestInit: { headers: asOwner(token) } } : undefined));
    await c.listTools(); // the client then checks results against outputSchema
    clients.set(token, c);
  }
  return c;
}

/** A call acts for `by` (default: the listing it names) with that listing's owner token; null: no token. */
const call = async (name: string, args: Record<string, unknown>, by: string | null = (args.listing_id as string | undefined) ?? null) =>
  (await (await clientWith(by === null ? '' : (owners.get(by) ?? ''))).callTool({ name, arguments: args })) as unknown as Result;
const ok = async (name: string, args: Record<string, unknown>, by?: string | null) => {
  const r = await call(name, args, by);
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent;
};
const fails = async (name: string, args: Record<string, unknown>, by?: string | null) => {
  const r = await call(name, args, by);
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent.error as { code: string; field?: string };
};

let seq = 0;
/** A Live listing with one skill, on a domain of its own, owned by the test (claimed now). */
async function seed(name: string): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${++seq}.example/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  const now = clock.now().toISOString();
  const capabilities = JSON.stringify({ names: ['summarize_text'], items: [{ name: 'summarize_text', description: 'Summarize a text', params: [] }] });
  await setListingState(app, id, { lane: 'active', kind: 'mcp', name, description: `${name} for inbox tests`, capabilities, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 70, probed_at: now }, now);
  owners.set(id, await ownListing(app, id));
  return id;
}

/** The messages (not the status notices) the owner's check-in shows, newest first, and its next_actions. */
async function inbox(listingId: string) {
  const res = await postJson(app, '/api/talk', { listing_id: listingId }, asOwner(owners.get(listingId)!));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { messages: (res.body.inbox as Structured[]).filter((m) => m.source === 'message'), actions: res.body.next_actions as { tool: string; args: Record<string, unknown> }[] };
}

const SENTENCE = 'The demo kernel fit my runtime after one loop tick, very useful.';

before(async () => {
  app = await startApp({ clock });
  base = await app.listen();
  await clientWith('');
});
after(async () => {
  for (const c of clients.values()) await c.close();
  await app.close();
});

test(`leave_feedback with partner_listing_id makes a workflow in the same call; the partner is invited through its inbox (${engine})`, async () => {
  clock.advance(DAY_MS);
  const lead = await seed('Feedback Collab Lead');
  const partner = await seed('Feedback Collab Partner');
  const fb = await ok('leave_feedback', { agent_name: 'collab-feedback', rating: 5, body: SENTENCE, listing_id: lead, partner_listing_id: partner, collab_goal: 'Research the market, write a summary' });
  assert.match(fb.feedback_id, /^fb_/);
  assert.equal(fb.workflow.lead_listing_id, lead);
  assert.equal(fb.workflow.source, 'feedback');
  assert.equal(fb.workflow.goal, 'Research the market, write a summary');
  assert.deepEqual(fb.workflow.partners, [{ listing_id: partner, role: 'partner' }]);
  assert.deepEqual(fb.next_step, { tool: 'collab_session_open', args: { workflow_id: fb.workflow.workflow_id, listing_id: lead }, why: fb.next_step.why, needs: ['owner_token'] });
  assert.equal(fb.next_steps.length, 2, 'the feedback\'s own next step follows');
  // The seat this feedback took gave the lead a product token: it never acts for the listing, the owner token does.
  assert.equal(fb.founding.outcome, 'seat');
  assert.match(fb.access_token, /^rc_/);
  assert.equal((await fails('list_collab_workflows', { listing_id: lead, access_token: fb.access_token }, null)).code, 'owner_token_required');
  const listed = await ok('list_collab_workflows', { listing_id: lead });
  assert.ok(listed.workflows.some((w: Structured) => w.workflow_id === fb.workflow.workflow_id));
  const theirs = await ok('list_collab_workflows', { listing_id: partner });
  assert.ok(theirs.workflows.some((w: Structured) => w.workflow_id === fb.workflow.workflow_id), 'the partner sees it too');
  // The inbox is its owner's: a read without the owner token shows no message.
  const stranger = await getJson(app, `/api/talk?listing_id=${partner}`);
  assert.equal(stranger.status, 200);
  assert.deepEqual(stranger.body.inbox.filter((m: Structured) => m.source === 'message'), []);
  // The partner's check-in shows the invitation with its facts and a callable action.
  const { messages, actions } = await inbox(partner);
  assert.equal(messages.length, 1);
  assert.equal(messages[0]!.type, 'collab_invitation');
  assert.equal(messages[0]!.from_listing_id, lead);
  assert.deepEqual(messages[0]!.data, { workflow_id: fb.workflow.workflow_id, goal: 'Research the market, write a summary', role: 'partner' });
  assert.match(messages[0]!.text, /^A collaboration with you as partner is planned by listing lst_\w+ \(named "Feedback Collab Lead"\)/);
  const listCall = actions.find((a) => a.tool === 'list_collab_workflows');
  assert.deepEqual(listCall?.args, { listing_id: partner });
  await ok(listCall!.tool, listCall!.args);

  // Opening the session (the answer's next_step) invites the partner again, now with its join call.
  const opened = await ok(fb.next_step.tool, fb.next_step.args);
  const after = await inbox(partner);
  const join = after.actions.find((a) => a.tool === 'collab_session_join');
  assert.deepEqual(join?.args, { session_id: opened.session.session_id, listing_id: partner });
  assert.equal(after.messages[0]!.data.session_id, opened.session.session_id);
  const joined = await ok(join!.tool, join!.args);
  assert.equal(joined.session.participants.find((p: Structured) => p.listing_id === partner).status, 'joined');
});

test(`leave_feedback with complete_collab over REST; refused workflows record no feedback (${engine})`, async () => {
  clock.advance(DAY_MS);
  const lead = await seed('Complete Collab Lead');
  const owner = asOwner(owners.get(lead)!);
  const res = await postJson(app, '/api/products/feedback', { rating: 4, body: SENTENCE, listing_id: lead, complete_collab: true }, owner);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.workflow.lead_listing_id, lead);
  assert.equal(res.body.workflow.open_join, true, 'no partner named and no composed peers: open to any Live listing');
  assert.equal(res.body.next_step.tool, 'collab_session_open');
  // The seat gave the lead a product token; the owner token still speaks for the listing. complete_collab: false and no partner: plain feedback.
  assert.equal(res.body.founding.outcome, 'seat');
  const token = res.body.access_token as string;
  assert.match(token, /^rc_/);
  const plain = await postJson(app, '/api/products/feedback', { rating: 4, body: 'Search found the right server on the first query today.', listing_id: lead, complete_collab: false }, owner);
  assert.equal(plain.status, 200);
  assert.equal(plain.body.workflow, undefined);

  const before = await app.sql.selectFrom('feedback_items').select('id').execute();
  // The product token as the Bearer: 401, nothing recorded.
  const asBearer = await postJson(app, '/api/products/feedback', { rating: 5, body: SENTENCE, listing_id: lead, complete_collab: true }, { authorization: `Bearer ${token}` });
  assert.equal(asBearer.status, 401);
  assert.equal(asBearer.body.error.code, 'invalid_owner_token');
  // No listing to lead the workflow: 400 listing_required, nothing recorded.
  const noListing = await fails('leave_feedback', { agent_name: 'collab-nolisting', rating: 5, body: SENTENCE, complete_collab: true });
  assert.deepEqual([noListing.code, noListing.field], ['listing_required', 'listing_id']);
  // An unknown partner: 404 on partner_listing_id, nothing recorded.
  const unknown = await fails('leave_feedback', { agent_name: 'collab-unknown', rating: 5, body: 'Another real sentence about the collab workflow path.', listing_id: lead, partner_listing_id: 'lst_nope' });
  assert.deepEqual([unknown.code, unknown.field], ['not_found', 'partner_listing_id']);
  // The lead as its own partner: 400.
  const self = await fails('leave_feedback', { agent_name: 'collab-self', rating: 5, body: 'A third real sentence about the collab workflow path.', listing_id: lead, partner_listing_id: lead });
  assert.equal(self.field, 'partner_listing_id');
  const bad = await fails('leave_feedback', { agent_name: 'collab-bad', rating: 5, body: SENTENCE, listing_id: lead, complete_collab: 'yes' });
  assert.equal(bad.field, 'complete_collab');
  const afterRows = await app.sql.selectFrom('feedback_items').select('id').execute();
  assert.equal(afterRows.length, before.length, 'a refused workflow rolls the feedback back');
});

test(`endorse, co_sign_founding and create_collab_workflow post to the addressee's inbox (${engine})`, async () => {
  clock.advance(DAY_MS);
  const a = await seed('Inbox Endorser');
  const b = await seed('Inbox Endorsed');
  const c = await seed('Inbox Invitee');
  // Refused endorsements post nothing: one without the endorser's owner token, one of itself.
  assert.equal((await fails('endorse', { listing_id: a, partner_listing_id: b }, null)).code, 'owner_token_required');
  assert.equal((await fails('endorse', { listing_id: a, partner_listing_id: a })).code, 'self_endorsement');
  // The owner of a Live listing of another domain endorses: it counts and moves the rank.
  const endorsed = await ok('endorse', { listing_id: a, partner_listing_id: b, body: 'Fast and exact summaries for our pipeline.' });
  assert.deepEqual([endorsed.counted, endorsed.moves_rank], [true, true]);
  // A repeat the same day does not count and posts nothing more.
  assert.equal((await ok('endorse', { listing_id: a, partner_listing_id: b })).counted, false);

  const workflow = await ok('create_collab_workflow', { listing_id: a, goal: 'Test the summaries, write a report', partners: [{ listing_id: c, role: 'tester' }] });
  // Each owner takes its listing's founding seat with real feedback, then they co-sign both ways with their owner tokens.
  const seatA = await ok('leave_feedback', { agent_name: 'inbox-a', rating: 5, body: SENTENCE, listing_id: a });
  const seatB = await ok('leave_feedback', { agent_name: 'inbox-b', rating: 5, body: SENTENCE, listing_id: b });
  assert.deepEqual([seatA.founding.outcome, seatB.founding.outcome], ['seat', 'seat']);
  // The seat's product token does not co-sign: only the owner token acts for the listing (as an
  // argument it is one co_sign_founding does not take; as the Bearer it is no owner token).
  assert.equal((await fails('co_sign_founding', { access_token: seatA.access_token, partner_listing_id: b, body: 'They answered every probe cleanly and fast.' }, null)).code, 'unknown_argument');
  const asProduct = (await (await clientWith(seatA.access_token)).callTool({ name: 'co_sign_founding', arguments: { listing_id: a, partner_listing_id: b, body: 'They answered every probe cleanly and fast.' } })) as unknown as Result;
  assert.equal(asProduct.isError, true, JSON.stringify(asProduct.structuredContent));
  assert.equal(asProduct.structuredContent.error.code, 'invalid_owner_token');
  await ok('co_sign_founding', { listing_id: a, partner_listing_id: b, body: 'They answered every probe cleanly and fast.' });
  await ok('co_sign_founding', { listing_id: b, partner_listing_id: a, body: 'Their endorsements matched the real work done.' });
  // A repeated co-sign changes nothing and posts nothing.
  assert.equal((await ok('co_sign_founding', { listing_id: a, partner_listing_id: b, body: 'They answered every probe cleanly and fast.' })).recorded, false);

  const forB = await inbox(b);
  assert.deepEqual(forB.messages.map((m) => m.type), ['co_sign', 'endorsement'], 'newest first');
  const [cosign, endorsement] = forB.messages;
  assert.equal(endorsement!.from_listing_id, a);
  assert.deepEqual(endorsement!.data, { channel: 'attraction', intensity: 5, day: '2026-11-04' });
  assert.doesNotMatch(endorsement!.text, /Fast and exact/, 'the endorser\'s note stays on the trace');
  assert.equal(cosign!.from_listing_id, a);
  assert.deepEqual(cosign!.data, { mutual: false });
  const forA = await inbox(a);
  assert.deepEqual(forA.messages.map((m) => [m.type, m.data.mutual]), [['co_sign', true]]);
  const forC = await inbox(c);
  assert.deepEqual(forC.messages.map((m) => [m.type, m.data.workflow_id, m.data.role]), [['collab_invitation', workflow.workflow.workflow_id, 'tester']]);
  // Every suggested call is valid input for its tool.
  for (const action of [...forB.actions, ...forC.actions]) {
    const args = action.tool === 'list_collab_workflows' || action.tool === 'sense_traces' || action.tool === 'get_co_sign_pairs' ? action.args : undefined;
    if (args) await ok(action.tool, args);
  }
  assert.ok(forB.actions.some((x) => x.tool === 'sense_traces' && x.args.partner_listing_id === a));
  assert.ok(forB.actions.some((x) => x.tool === 'get_co_sign_pairs'));
});
