// Collaboration's rules through the MCP door: open sessions and who may join, abandon
// and the converged state a refused packaging leaves, collab_run driving a workflow, the lists,
// bring-your-own runtimes, owner and access tokens, the workflow leave_feedback makes, next_step
// round trips and bad inputs. Every collab call acts for a listing with its owner token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { ownListing } from './helpers/owners.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { issueToken } from '../src/access/store.ts';
import { insertComposition } from '../src/mesh/store.ts';
import { createWorkflowFromFeedback } from '../src/collab/workflows.ts';
import { MAX_MESSAGES } from '../src/collab/sessions.ts';
import { subjectOfListing } from '../src/metering/caller.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let base: string;
let toolNames: Set<string>;

type Structured = Record<string, any>;
type Result = { isError?: boolean; structuredContent: Structured };

/** The owner token of every listing the test owns (seed claims each one). */
const owners = new Map<string, string>();
/** One SDK client per Bearer it sends ('' for none). */
const clients = new Map<string, Client>();

async function clientWith(bearer = ''): Promise<Client> {
  let c = clients.get(bearer);
  if (!c) {
    c = new Client({ name: 'collab-rules', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), bearer ? { requestInit: { headers: { authorization: `Bearer ${bearer}` } } } : undefined));
    await c.listTools(); // the client then checks results against outputSchema
    clients.set(bearer, c);
  }
  return c;
}

/**
 * Who sends a call: a listing (with its owner token, when the test owns it), a raw Bearer, or no
 * one (null). By default the listing the call names: an owner acting for its own listing.
 */
type By = string | { bearer: string } | null;

async function call(name: string, args: Record<string, unknown>, by: By = (args.listing_id as string | undefined) ?? null): Promise<Result> {
  const bearer = by === null ? undefined : typeof by === 'string' ? owners.get(by) : by.bearer;
  return (await (await clientWith(bearer)).callTool({ name, arguments: args })) as unknown as Result;
}
const ok = async (name: string, args: Record<string, unknown>, by?: By) => {
  const r = await call(name, args, by);
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.structuredContent)}`);
  assert.equal(r.structuredContent.ok, true);
  if (r.structuredContent.next_step) assert.ok(toolNames.has(r.structuredContent.next_step.tool), `${name}'s next_step names a real tool`);
  return r.structuredContent;
};
const fails = async (name: string, args: Record<string, unknown>, by?: By) => {
  const r = await call(name, args, by);
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent.error as { code: string; message: string; field?: string; details?: any };
};
const follow = (next: { tool: string; args: Record<string, unknown> }) => ok(next.tool, next.args);
const newDay = () => clock.advance(DAY_MS);

let seq = 0;
/** A listing on a domain of its own (so each owner has its own allowances), owned by the test. */
async function seed(name: string, opts: { founding?: boolean; lane?: 'active' | 'failed' } = {}): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${++seq}.example/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  const now = clock.now().toISOString();
  const lane = opts.lane ?? 'active';
  const capabilities = JSON.stringify({ names: ['translate_text'], items: [{ name: 'translate_text', description: 'Translate a text', params: [] }] });
  await setListingState(app, id, { lane, kind: 'mcp', name, capabilities, live_since: lane === 'active' ? now : null, ...(opts.founding ? { founding_verified: 1 as const } : {}) }, now);
  owners.set(id, await ownListing(app, id));
  return id;
}

before(async () => {
  app = await startApp({ clock });
  base = await app.listen();
  toolNames = new Set((await (await clientWith()).listTools()).tools.map((t) => t.name));
});
after(async () => {
  for (const c of clients.values()) await c.close();
  await app.close();
});

/** A session with every step done by the lead, ready to close. */
async function finishedSession(lead: string, goal: string): Promise<string> {
  const open = await ok('collab_session_open', { goal, listing_id: lead, steps: [{ title: 'Do it all', role: 'lead' }] });
  const sid = open.session.session_id as string;
  await ok('collab_session_claim', { session_id: sid, listing_id: lead });
  await ok('collab_session_result', { session_id: sid, listing_id: lead, result: `All done for: ${goal}` });
  return sid;
}

test(`an open session takes any Live listing as partner; not a listing that is not Live (${engine})`, async () => {
  newDay();
  const [lead, live, failed] = [await seed('Open Lead'), await seed('Drop In'), await seed('Broken', { lane: 'failed' })];
  const open = await ok('collab_session_open', { goal: 'Translate the docs, check the glossary', listing_id: lead });
  const sid = open.session.session_id;
  assert.equal(open.session.open_join, true);
  assert.deepEqual(open.invitations, []);
  // Anyone sees it (list_opportunities reads the same): open sessions with unfilled roles.
  const listed = await ok('list_collab_sessions', { state: 'open' });
  const mine = listed.sessions.find((s: Structured) => s.session_id === sid);
  assert.deepEqual(mine.unfilled_roles, ['partner']);
  assert.equal((await fails('collab_session_join', { session_id: sid, listing_id: failed })).code, 'not_live');
  // A Live listing not yet in it is told to join.
  const before = await ok('collab_session_next', { session_id: sid, listing_id: live });
  assert.equal(before.status, 'join');
  // Only its owner joins it: no owner token is a 401, another listing's token a 403; nothing changes.
  const anonymous = await fails(before.next_step.tool, before.next_step.args, null);
  assert.deepEqual([anonymous.code, anonymous.field], ['owner_token_required', 'authorization']);
  assert.equal((await fails(before.next_step.tool, before.next_step.args, lead)).code, 'token_mismatch');
  assert.deepEqual((await ok('list_collab_sessions', { state: 'open' })).sessions.find((s: Structured) => s.session_id === sid).unfilled_roles, ['partner']);
  const joined = await follow(before.next_step);
  assert.equal(joined.role, 'partner');
  assert.equal(joined.session.state, 'active');
  assert.deepEqual(joined.session.unfilled_roles, []);
  assert.equal((await ok('collab_session_join', { session_id: sid, listing_id: live })).already_joined, true, 'joining twice changes nothing');
  const next = await follow(joined.next_step);
  assert.equal(next.status, 'claim');
  await follow(next.next_step);
  assert.deepEqual((await ok('list_collab_sessions', { state: 'open' })).sessions.filter((s: Structured) => s.session_id === sid), [], 'active now');
  const active = await ok('list_collab_sessions', { listing_id: live });
  assert.equal(active.sessions[0].session_id, sid);
  assert.equal(active.next_step.tool, 'collab_session_next');
});

test(`abandon closes an unfinished session; a refused packaging leaves it converged until closed again (${engine})`, async () => {
  newDay();
  const [closer, mate] = [await seed('Closer'), await seed('Mate')];
  const open = await ok('collab_session_open', { goal: 'Sketch a logo, pick colours', listing_id: closer, partner_listing_id: mate });
  const sid = open.session.session_id;
  const pending = await fails('collab_session_close', { session_id: sid, listing_id: closer });
  assert.equal(pending.code, 'steps_pending');
  assert.equal((await fails('collab_session_close', { session_id: sid, listing_id: mate, abandon: true })).code, 'lead_only');
  const abandoned = await ok('collab_session_close', { session_id: sid, listing_id: closer, abandon: true });
  assert.equal(abandoned.outcome, 'abandoned');
  assert.equal(abandoned.session.state, 'closed');
  assert.equal((await fails('collab_session_join', { session_id: sid, listing_id: mate })).code, 'session_closed');
  await follow(abandoned.next_step);

  // collab_package allows one a day: the second close converges, then packaging is refused.
  const lead = await seed('Packager');
  const first = await finishedSession(lead, 'Write a haiku about teamwork');
  assert.equal((await ok('collab_session_close', { session_id: first, listing_id: lead })).outcome, 'packaged');
  const second = await finishedSession(lead, 'Write a limerick about deadlines');
  const refused = await fails('collab_session_close', { session_id: second, listing_id: lead });
  assert.equal(refused.code, 'quota_exhausted');
  assert.equal(refused.details.event_id, 'collab_package');
  const stuck = await ok('list_collab_sessions', { listing_id: lead, state: 'converged' });
  assert.deepEqual(stuck.sessions.map((s: Structured) => s.session_id), [second]);
  assert.equal((await fails('collab_session_message', { session_id: second, listing_id: lead, text: 'hello' })).code, 'session_closed');
  assert.equal((await fails('collab_session_close', { session_id: second, listing_id: lead, abandon: true })).code, 'session_converged');
  const status = await ok('collab_session_next', { session_id: second, listing_id: lead });
  assert.equal(status.status, 'closing');
  newDay();
  const packaged = await follow(status.next_step);
  assert.equal(packaged.outcome, 'packaged');
  assert.deepEqual(Object.keys(packaged.meters), ['collab_package'], 'converged once: only packaging is charged');
  const drafts = await app.sql.selectFrom('collab_products').select(['session_id', 'state']).where('owner_listing_id', '=', lead).orderBy('created_at').execute();
  assert.deepEqual(drafts, [
    { session_id: first, state: 'draft' },
    { session_id: second, state: 'draft' },
  ]);
  const closedNext = await ok('collab_session_next', { session_id: second, listing_id: lead });
  assert.equal(closedNext.next_step.tool, 'install_collab_product');
  const own = await follow(closedNext.next_step);
  assert.equal(own.access, 'contributor');
  assert.equal(own.state, 'draft');
});

test(`collab_run drives a workflow: opens its session, joins, claims, posts (${engine})`, async () => {
  newDay();
  const [lead, writer] = [await seed('Run Lead'), await seed('Run Writer')];
  const created = await ok('create_collab_workflow', {
    goal: 'A newsletter issue about agent registries',
    listing_id: lead,
    partners: [{ listing_id: writer, role: 'Writer' }],
    steps: [
      { title: 'Draft the issue', role: 'writer' },
      { title: 'Edit and send', role: 'lead' },
    ],
  });
  const wf = created.workflow.workflow_id;
  assert.deepEqual(created.workflow.partners, [{ listing_id: writer, role: 'writer' }]);
  assert.equal((await fails('collab_run', { workflow_id: wf, listing_id: writer })).code, 'no_session');
  const stranger = await seed('Stranger');
  assert.equal((await fails('collab_run', { workflow_id: wf, listing_id: stranger })).code, 'not_invited');
  const leadRun = await ok('collab_run', { workflow_id: wf, listing_id: lead });
  assert.equal(leadRun.action, 'waiting');
  assert.equal(leadRun.meters.collab_session_open.used_today, 1);
  assert.match(leadRun.waiting_on, /role writer/);
  await follow(leadRun.next_step); // a nudge (collab_session_message)
  const early = await ok('collab_run', { workflow_id: wf, listing_id: lead, result: 'Too early' });
  assert.equal(early.action, 'waiting');
  assert.equal(early.result_posted, false);
  assert.equal((await fails('collab_run', { workflow_id: wf, listing_id: writer }, lead)).code, 'token_mismatch', 'the lead does not run the writer\'s part');
  const claim = await ok('collab_run', { workflow_id: wf, listing_id: writer });
  assert.equal(claim.joined, true);
  assert.equal(claim.action, 'claimed');
  assert.equal(claim.step.step, 1);
  assert.equal(claim.next_step.tool, 'collab_session_result');
  assert.equal((await ok('collab_run', { workflow_id: wf, listing_id: writer })).action, 'holding');
  const done = await ok('collab_run', { workflow_id: wf, listing_id: writer, result: 'Issue 1: registries, probes and trust scores.' });
  assert.equal(done.action, 'completed');
  assert.equal(done.step.state, 'done');
  assert.equal((await fails('collab_session_open', { workflow_id: wf, listing_id: lead })).code, 'session_exists');
  assert.equal((await fails('collab_session_open', { workflow_id: wf, listing_id: writer })).code, 'lead_only');
  // list_collab_workflows -> collab_run, as an agent would.
  const listed = await ok('list_collab_workflows', { listing_id: lead });
  assert.equal(listed.workflows[0].workflow_id, wf);
  assert.equal(listed.workflows[0].your_role, 'lead');
  assert.equal(listed.workflows[0].current_session.state, 'active');
  assert.equal(listed.next_step.tool, 'collab_run');
  const leadClaims = await follow(listed.next_step);
  assert.equal(leadClaims.action, 'claimed');
  assert.equal(leadClaims.inputs[0].result, 'Issue 1: registries, probes and trust scores.');
  // The result is the lead's own work: the next step leaves it to the lead and says so.
  assert.deepEqual(leadClaims.next_step.needs, ['result', 'owner_token']);
  const finished = await follow({ ...leadClaims.next_step, args: { ...leadClaims.next_step.args, result: 'Issue 1, edited: registries, probes, trust scores and one correction.' } });
  assert.equal(finished.next_step.tool, 'collab_session_close');
  const closed = await follow(finished.next_step);
  assert.equal(closed.outcome, 'packaged');
  const writerView = await ok('list_collab_workflows', { listing_id: writer });
  assert.equal(writerView.workflows[0].your_role, 'writer');
  assert.equal(writerView.workflows[0].current_session, null);
});

test(`register_collab_byo lists and probes the endpoint, then seats it as a participant (${engine})`, async () => {
  newDay();
  const [lead, other, listed] = [await seed('BYO Lead'), await seed('Not Lead'), await seed('Listed Runtime')];
  const open = await ok('collab_session_open', {
    goal: 'Index the catalog, report gaps',
    listing_id: lead,
    partners: [{ listing_id: other, role: 'indexer' }],
    steps: [
      { title: 'Index the catalog', role: 'indexer' },
      { title: 'Report gaps', role: 'lead' },
    ],
  });
  const sid = open.session.session_id;
  const url = 'https://my-runtime.example.org/mcp';
  assert.equal((await fails('register_collab_byo', { session_id: sid, listing_id: lead, url }, null)).code, 'owner_token_required');
  assert.equal((await fails('register_collab_byo', { session_id: sid, listing_id: other, url })).code, 'lead_only');
  assert.equal((await fails('register_collab_byo', { session_id: sid, listing_id: lead, url, role: 'painter' })).field, 'role');
  assert.equal((await fails('register_collab_byo', { session_id: sid, listing_id: lead })).field, 'url');
  assert.equal((await fails('register_collab_byo', { session_id: sid, listing_id: lead, url: 'http://127.0.0.1/mcp' })).code, 'url_not_allowed');
  const byo = await ok('register_collab_byo', { session_id: sid, listing_id: lead, url });
  assert.equal(byo.role, 'indexer');
  assert.equal(byo.outcome, 'listed');
  assert.equal(byo.lane, 'queued', 'probed like any listing');
  assert.deepEqual([byo.status, byo.already], ['joined', false], 'listed by this very call: the lead brought it, so it joins');
  assert.ok(byo.session.participants.some((p: Structured) => p.listing_id === byo.listing_id && p.byo && p.status === 'joined'));
  const again = await ok('register_collab_byo', { session_id: sid, listing_id: lead, url });
  assert.equal(again.listing_id, byo.listing_id);
  assert.deepEqual([again.status, again.already], ['joined', true]);
  // The runtime acts with its listing once its owner claims it (claim_listing; the helper stands in).
  assert.deepEqual(byo.next_step, { tool: 'claim_listing', args: { listing_id: byo.listing_id }, why: byo.next_step.why });
  owners.set(byo.listing_id, await ownListing(app, byo.listing_id));
  const next = await ok('collab_session_next', { session_id: sid, listing_id: byo.listing_id });
  assert.equal(next.status, 'claim');
  const claimed = await follow(next.next_step);
  assert.equal(claimed.step.claimed_by, byo.listing_id);
  const listing = await app.sql.selectFrom('listings').select(['url', 'source']).where('id', '=', byo.listing_id).executeTakeFirstOrThrow();
  assert.deepEqual(listing, { url, source: 'register_collab_byo' });

  // A URL listed before is someone's own listing: only invited (its inbox says so), it joins when its owner accepts.
  const listedUrl = (await app.sql.selectFrom('listings').select('url').where('id', '=', listed).executeTakeFirstOrThrow()).url;
  const invited = await ok('register_collab_byo', { session_id: sid, listing_id: lead, url: listedUrl });
  assert.equal(invited.listing_id, listed);
  assert.deepEqual([invited.status, invited.already], ['invited', false]);
  assert.equal(invited.session.participants.find((p: Structured) => p.listing_id === listed).status, 'invited');
  assert.equal(invited.next_step.tool, 'list_collab_sessions');
  const invitation = await app.sql.selectFrom('inbox_messages').select(['kind', 'from_listing_id', 'action']).where('listing_id', '=', listed).executeTakeFirstOrThrow();
  assert.deepEqual([invitation.kind, invitation.from_listing_id], ['collab_invitation', lead]);
  const accept = JSON.parse(invitation.action!);
  assert.deepEqual(accept.args, { session_id: sid, listing_id: listed });
  const twice = await ok('register_collab_byo', { session_id: sid, listing_id: lead, url: listedUrl });
  assert.deepEqual([twice.status, twice.already], ['invited', true], 'registering it again does not join it');
  const joined = await ok(accept.tool, accept.args);
  assert.deepEqual([joined.role, joined.already_joined], ['indexer', false]);
});

test(`owner and access tokens: a listing acts only with its owner token; a full access token buys free (${engine})`, async () => {
  newDay();
  const [lead, holder, demo] = [await seed('Token Lead', { founding: true }), await seed('Token Holder'), await seed('Demo Holder')];
  const now = clock.now().toISOString();
  const full = (await inTransaction(app.store.db.kysely, (trx) => issueToken(trx, holder, `listing:${holder}`, 'full', now, null))).token!;
  const demoToken = (await inTransaction(app.store.db.kysely, (trx) => issueToken(trx, demo, `listing:${demo}`, 'demo', now, null))).token!;
  const productId = await (async () => {
    const sid = await finishedSession(lead, 'Collect agent card examples');
    const closed = await ok('collab_session_close', { session_id: sid, listing_id: lead });
    await ok('publish_collab_product', { product_id: closed.product.product_id, listing_id: lead, price_usd: 12 });
    return closed.product.product_id as string;
  })();
  // A product access token never acts for a listing: not as an argument, not as the Bearer.
  assert.equal((await fails('buy_collab_product', { product_id: productId, listing_id: holder, access_token: full }, null)).code, 'owner_token_required');
  assert.equal((await fails('buy_collab_product', { product_id: productId, access_token: full }, null)).code, 'listing_required');
  assert.equal((await fails('buy_collab_product', { product_id: productId, listing_id: holder }, { bearer: full })).code, 'invalid_owner_token');
  assert.equal((await fails('buy_collab_product', { product_id: productId, listing_id: lead, access_token: full }, holder)).code, 'token_mismatch');
  // The holder's owner, with its full access token: founding access.
  const bought = await ok('buy_collab_product', { product_id: productId, access_token: full }, holder);
  assert.equal(bought.purchase.via, 'founding', 'a full token is founding access');
  assert.equal(bought.purchase.buyer_listing_id, holder);
  const status = await ok('collab_access_status', { access_token: full }, holder);
  assert.equal(status.founding_access, true);
  assert.equal(status.purchases, 1);
  assert.equal((await fails('buy_collab_product', { product_id: productId, listing_id: demo, access_token: demoToken })).code, 'payment_required', 'a demo token is not founding access');
  assert.equal((await fails('buy_collab_product', { product_id: productId, listing_id: demo, access_token: full })).code, 'payment_required', 'another listing\'s full token buys nothing free');
  assert.equal((await fails('install_collab_product', { product_id: productId, listing_id: holder }, { bearer: 'rco_nope' })).code, 'invalid_owner_token');
  const installed = await ok('install_collab_product', { product_id: productId, access_token: full }, holder);
  assert.equal(installed.access, 'bought (founding)');
  // The market marks what is free and bought for a listing.
  const market = await ok('list_collab_market', { listing_id: lead });
  assert.equal(market.products.find((p: Structured) => p.product_id === productId).yours, true);
  const anonymous = await ok('list_collab_market', {});
  assert.equal(anonymous.next_step.tool, 'collab_access_status');
  await follow(anonymous.next_step);
});

test(`leave_feedback's workflow: createWorkflowFromFeedback, then its session through next_step (${engine})`, async () => {
  newDay();
  const [lead, peer, gone] = [await seed('Feedback Lead'), await seed('Composed Peer'), await seed('Gone Peer', { lane: 'failed' })];
  // Composed peers (mesh) become partners when none is named; a peer that is not Live is skipped.
  await inTransaction(app.store.db.kysely, async (trx) => {
    for (const p of [peer, gone]) {
      await insertComposition(trx, { composition_id: `cmp_${p}`, owner: `listing:${lead}`, listing_id: lead, goal: null, capabilities: [], steps: [{ step: 1, listing_id: p, kind: 'mcp', name: 'x', endpoint: 'https://x', covers: [], calls: [], trail_strength: 0, probe_score: null }], gaps: [], created_at: clock.now().toISOString() });
    }
  });
  const subject = subjectOfListing(await app.sql.selectFrom('listings').select(['id', 'url']).where('id', '=', lead).executeTakeFirstOrThrow());
  const made = await inTransaction(app.store.db.kysely, (trx) => createWorkflowFromFeedback(trx, { subject, listing_id: lead, now: clock.now() }));
  assert.deepEqual(made.workflow.partners, [{ listing_id: peer, role: 'partner' }]);
  assert.equal(made.workflow.source, 'feedback');
  assert.match(made.workflow.goal, /^Review the card of Feedback Lead, test translate_text/);
  assert.deepEqual(made.workflow.steps.map((s: Structured) => s.role), ['partner', 'partner', 'partner', 'lead']);
  const opened = await follow(made.next_step);
  assert.deepEqual(opened.invitations.map((i: Structured) => i.listing_id), [peer]);
  const named = await inTransaction(app.store.db.kysely, (trx) => createWorkflowFromFeedback(trx, { subject, listing_id: lead, partner_listing_id: gone, goal: 'Fix the probe failures, retest', now: clock.now() }));
  assert.deepEqual(named.workflow.partners, [{ listing_id: gone, role: 'partner' }]);
  await assert.rejects(
    inTransaction(app.store.db.kysely, (trx) => createWorkflowFromFeedback(trx, { subject: { key: 'name:x', allowance: 'addr:x', kind: 'name', label: 'x' }, now: clock.now() })),
    (e: { code?: string }) => e.code === 'listing_required',
  );
  // complete_collab_path without a goal or partner: the derived goal and the composed peer.
  const path = await ok('complete_collab_path', { listing_id: lead, agent_name: 'fb' });
  assert.equal(path.partners_from, 'composed_peers');
  assert.equal(path.workflow.goal, made.workflow.goal);
});

test(`messages are capped per session and cleaned (${engine})`, async () => {
  newDay();
  const lead = await seed('Chatty');
  const open = await ok('collab_session_open', { goal: 'Talk a lot, decide later', listing_id: lead, steps: [{ title: 'Decide', role: 'lead' }] });
  const sid = open.session.session_id;
  const long = await ok('collab_session_message', { session_id: sid, listing_id: lead, text: `${'word '.repeat(400)}\u0000end` });
  const stored = await app.sql.selectFrom('collab_messages').select('body').where('id', '=', long.message.id).executeTakeFirstOrThrow();
  assert.ok(stored.body.length <= 1000 && !stored.body.includes('\u0000'));
  const at = clock.now().toISOString();
  await app.sql
    .insertInto('collab_messages')
    .values(Array.from({ length: MAX_MESSAGES - 1 }, (_, i) => ({ id: `cmsg_fill${i}`, session_id: sid, from_listing_id: lead, body: 'filler', created_at: at })))
    .execute();
  const full = await fails('collab_session_message', { session_id: sid, listing_id: lead, text: 'one too many' });
  assert.equal(full.code, 'messages_full');
  const status = await ok('collab_access_status', { listing_id: lead });
  assert.equal(status.allowances.find((a: Structured) => a.event_id === 'collab_talk').used_today, 1, 'the refused message spent nothing');
});

test(`bad inputs are clear 400s (or 404s) naming the field, and cost nothing (${engine})`, async () => {
  newDay();
  const [lead, mate] = [await seed('Careful Lead'), await seed('Careful Mate')];
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['create_collab_workflow', { listing_id: lead }, 'invalid_input', 'goal'],
    ['create_collab_workflow', { listing_id: lead, goal: '... !!' }, 'invalid_input', 'goal'],
    ['create_collab_workflow', { goal: 'A fine goal for a team' }, 'listing_required', 'listing_id'],
    ['create_collab_workflow', { goal: 'A fine goal for a team', listing_id: 'lst_nobody' }, 'not_found', 'listing_id'],
    ['create_collab_workflow', { goal: 'A fine goal for a team', listing_id: lead, partner_listing_id: 'lst_nobody' }, 'not_found', 'partner_listing_id'],
    ['create_collab_workflow', { goal: 'A fine goal for a team', listing_id: lead, partner_listing_ids: [mate, lead] }, 'invalid_input', 'partner_listing_ids.1'],
    ['create_collab_workflow', { goal: 'A fine goal for a team', listing_id: lead, partners: [{ listing_id: mate, role: 'Bad Role!' }] }, 'invalid_input', 'partners.0.role'],
    ['create_collab_workflow', { goal: 'A fine goal for a team', listing_id: lead, partners: [{ listing_id: mate, role: 'lead' }] }, 'invalid_input', 'partners.0.role'],
    ['create_collab_workflow', { goal: 'A fine goal for a team', listing_id: lead, partner_listing_id: mate, steps: [{ title: 'Paint', role: 'painter' }] }, 'invalid_input', 'steps.0.role'],
    ['create_collab_workflow', { goal: 'A fine goal for a team', listing_id: lead, steps: [{ title: '  ', role: 'lead' }] }, 'invalid_input', 'steps.0.title'],
    ['create_collab_workflow', { goal: 'A fine goal for a team', listing_id: lead, steps: Array.from({ length: 13 }, () => ({ title: 'x', role: 'lead' })) }, 'invalid_input', 'steps'],
    ['collab_session_open', { listing_id: lead }, 'invalid_input', 'goal'],
    ['collab_session_open', { listing_id: lead, workflow_id: 'cwf_x', goal: 'A fine goal for a team' }, 'invalid_input', 'workflow_id'],
    ['collab_session_open', { listing_id: lead, workflow_id: 'cwf_nothing' }, 'not_found', 'workflow_id'],
    ['collab_session_next', { session_id: 'cs_nothing', listing_id: lead }, 'not_found', 'session_id'],
    ['collab_session_claim', { session_id: 'cs_nothing', listing_id: lead, step: 0 }, 'invalid_input', 'step'],
    ['collab_session_claim', { session_id: 'cs_nothing', listing_id: lead, step: 'first' }, 'invalid_input', 'step'],
    ['collab_session_result', { session_id: 'cs_nothing', listing_id: lead, result: '   ' }, 'invalid_input', 'result'],
    ['collab_session_message', { session_id: 'cs_nothing', listing_id: lead, text: '' }, 'invalid_input', 'text'],
    ['collab_run', { listing_id: lead }, 'invalid_input', 'workflow_id'],
    ['list_collab_sessions', { state: 'weird' }, 'invalid_input', 'state'],
    ['list_collab_market', { limit: 0 }, 'invalid_input', 'limit'],
    ['publish_collab_product', { product_id: 'cpr_x', listing_id: lead, price_usd: -1 }, 'invalid_input', 'price_usd'],
    ['publish_collab_product', { product_id: 'cpr_x', listing_id: lead, price_usd: 5000 }, 'invalid_input', 'price_usd'],
    ['buy_collab_product', { product_id: 'cpr_nothing', listing_id: lead }, 'not_found', 'product_id'],
    ['install_collab_product', { product_id: 'cpr_nothing', listing_id: lead }, 'not_found', 'product_id'],
    ['register_collab_byo', { session_id: 'cs_nothing', listing_id: lead, url: 'https://x.example.org/mcp' }, 'not_found', 'session_id'],
    ['collab_access_status', { listing_id: 'lst_nobody' }, 'not_found', 'listing_id'],
  ];
  for (const [tool, args, code, field] of cases) {
    const e = await fails(tool, args);
    assert.equal(e.code, code, `${tool} ${JSON.stringify(args)}: ${e.message}`);
    assert.equal(e.field, field, `${tool} ${JSON.stringify(args)}: ${e.message}`);
  }
  // Acting for a listing without its owner token, with another listing's, or with a product token as the Bearer.
  const open = { goal: 'A fine goal for a team', listing_id: lead };
  const refusals: [By, string, string][] = [
    [null, 'owner_token_required', 'authorization'],
    [mate, 'token_mismatch', 'listing_id'],
    [{ bearer: `rc_${'x'.repeat(43)}` }, 'invalid_owner_token', 'authorization'],
  ];
  for (const [by, code, field] of refusals) {
    const e = await fails('collab_session_open', open, by);
    assert.deepEqual([e.code, e.field], [code, field], e.message);
  }
  // A draft is not on the market; refused claims cost no unit.
  const sid = await finishedSession(lead, 'Collect feedback, sort it');
  const closed = await ok('collab_session_close', { session_id: sid, listing_id: lead });
  assert.equal((await fails('buy_collab_product', { product_id: closed.product.product_id, listing_id: mate })).code, 'not_published');
  assert.equal((await fails('install_collab_product', { product_id: closed.product.product_id, listing_id: mate })).code, 'not_bought');
  const status = await ok('collab_access_status', { listing_id: lead });
  const used = Object.fromEntries(status.allowances.map((a: Structured) => [a.event_id, a.used_today]));
  assert.deepEqual(used, { collab_session_open: 1, collab_session_step: 1, collab_converge: 1, collab_package: 1, collab_publish: 0, collab_talk: 0 });
});
