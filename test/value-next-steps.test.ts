// Every value tool's next_step is valid input for the tool it names (TOOLS.md "Value
// tools"): each value tool (VALUE_EVENTS, and the stigmergy and feedback tools that answer with a
// next_step: leave_feedback, leave_trace, deposit_outcome, endorse; sense_traces is a plain read
// with none) is called over MCP with the official SDK client, which checks every result against
// the listed output schema, and the next_step of its answer is fed back into tools/call with what
// its `needs` names added by the caller (its own goals, sentence, rating or verdict); that call must
// succeed too. Each case runs on its own UTC day, so allowances never decide it. A
// tool that acts for a listing (endorse) is refused without the listing's owner token and called,
// with its follow-up, by the listing's owner (owner token as Authorization: Bearer).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';
import { VALUE_EVENTS } from '../src/metering/events.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let client: Client;
/** The owner of the mailer listing (its owner token on the transport). */
let mailerOwner: Client;
let tools: Set<string>;

type Structured = Record<string, any>;
interface NextStep {
  tool: string;
  args: Record<string, unknown>;
  why: string;
  needs?: string[];
}

/** What a caller writes itself for each field a next_step `needs` (never a placeholder of Rollcall's). */
const WRITTEN: Record<string, unknown> = {
  goals: ['answer each support request in two sentences', 'say plainly when a question is out of scope'],
  body: 'It did what I asked and named what it could not do.',
  rating: 4,
  ok: true,
  quality: 0.8,
  goal: 'Send an email with a resized image',
};

/** A next_step's args with what it needs added, as the caller would (the owner token travels on the transport). */
const completed = (next: NextStep) => ({ ...next.args, ...Object.fromEntries((next.needs ?? []).filter((n) => n in WRITTEN).map((n) => [n, WRITTEN[n]])) });

async function ok(name: string, args: Record<string, unknown>, via = client): Promise<Structured> {
  const r = (await via.callTool({ name, arguments: args })) as unknown as { isError?: boolean; structuredContent: Structured };
  assert.ok(!r.isError, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(r.structuredContent)}`);
  assert.equal(r.structuredContent.ok, true);
  return r.structuredContent;
}

async function seed(url: string, name: string, items: { name: string; description: string }[]): Promise<string> {
  const res = await postJson(app, '/api/publish', { url });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  const now = clock.now().toISOString();
  const capabilities = JSON.stringify({ names: items.map((i) => i.name), items: items.map((i) => ({ params: [], ...i })) });
  await setListingState(app, id, { lane: 'active', kind: 'mcp', name, description: `${name} for next_step tests`, capabilities, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 80, probed_at: now }, now);
  return id;
}

const ids = {} as Record<'mailer' | 'pixel', string>;

before(async () => {
  app = await startApp({ clock, env: { SEARCH_POLL_MS: '0' } });
  const base = await app.listen();
  client = new Client({ name: 'next-step-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  tools = new Set((await client.listTools()).tools.map((t) => t.name)); // results are then checked against each outputSchema
  // Two owner domains (next-mailer.example.org and next-pixel.example.org would be one, example.org).
  ids.mailer = await seed('https://next-mailer-example.org/mcp', 'Next Mailer', [{ name: 'send_email', description: 'Send an email to a recipient' }]);
  ids.pixel = await seed('https://next-pixel-example.org/mcp', 'Next Pixel', [{ name: 'resize_image', description: 'Resize an image to a width and height' }]);
  await app.services.search.poll();
  mailerOwner = new Client({ name: 'next-step-test-owner', version: '1.0.0' });
  await mailerOwner.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: asOwner(await ownListing(app, ids.mailer)) } }));
  await mailerOwner.listTools();
});
after(async () => {
  await mailerOwner.close();
  await client.close();
  await app.close();
});

const GOALS = ['Answer billing questions for small shops', 'Cite the invoice line you used'];

/** Each case: what runs first (setup, on the same day), then the value tool call whose next_step is followed. */
interface Case {
  tool: string;
  label?: string;
  setup?: () => Promise<unknown>;
  args: () => Record<string, unknown>;
  /** Who calls the tool and follows its next_step (default: a caller without an owner token). */
  via?: () => Client;
}

const CASES: Case[] = [
  { tool: 'improve_kernel', args: () => ({ agent_name: 'ns-kernel', goals: GOALS }) },
  { tool: 'run_loop_tick', label: 'run_loop_tick without a kernel', args: () => ({ agent_name: 'ns-no-kernel' }) },
  { tool: 'run_loop_tick', label: 'run_loop_tick over a kernel without evidence', setup: () => ok('improve_kernel', { agent_name: 'ns-ticker', goals: GOALS }), args: () => ({ agent_name: 'ns-ticker' }) },
  {
    tool: 'run_loop_tick',
    label: 'run_loop_tick over a kernel with evidence',
    setup: async () => {
      await ok('improve_kernel', { agent_name: 'ns-evidence', goals: GOALS });
      await ok('leave_feedback', { agent_name: 'ns-evidence', rating: 2, body: 'It never cited the invoice line it used for billing answers.' });
    },
    args: () => ({ agent_name: 'ns-evidence' }),
  },
  { tool: 'mesh_match', args: () => ({ agent_name: 'ns-matcher', capabilities: ['send email', 'resize image'] }) },
  // The mailer's owner plans for the mailer (a stranger's plan would be its own, naming no listing of its own).
  { tool: 'mesh_compose', args: () => ({ agent_name: 'ns-composer', listing_id: ids.mailer, goal: 'Send an email with a resized image' }), via: () => mailerOwner },
  { tool: 'network_sense', args: () => ({}) },
  { tool: 'leave_feedback', args: () => ({ agent_name: 'ns-feedback', rating: 4, body: 'The kernel was clear, but the short prompt dropped my tone rule.', surface: 'improve_kernel' }) },
  { tool: 'leave_trace', args: () => ({ agent_name: 'ns-tracer', capability: 'send email', kind: 'attraction', body: 'Delivered every message within a second in our tests.' }) },
  {
    tool: 'deposit_outcome',
    setup: () => ok('improve_kernel', { agent_name: 'ns-outcome', goals: GOALS }),
    args: () => ({ agent_name: 'ns-outcome', ok: true, quality: 0.7, body: 'The kernel kept answers short and cited the lines.', from: 'improve_kernel' }),
  },
  {
    tool: 'endorse',
    // Without the mailer's owner token the endorsement is refused: it acts for the mailer.
    setup: async () => {
      const args = { listing_id: ids.mailer, partner_listing_id: ids.pixel, body: 'Resized every image we sent it correctly.' };
      const r = (await client.callTool({ name: 'endorse', arguments: args })) as unknown as { isError?: boolean; structuredContent: Structured };
      assert.equal(r.isError, true);
      assert.equal(r.structuredContent.error.code, 'owner_token_required');
    },
    args: () => ({ listing_id: ids.mailer, partner_listing_id: ids.pixel, body: 'Resized every image we sent it correctly.' }),
    via: () => mailerOwner,
  },
];

test(`every value tool's next_step, fed back with what it needs, succeeds (${engine})`, async () => {
  for (const event of VALUE_EVENTS) assert.ok(CASES.some((c) => c.tool === event), `${event} is covered`);
  const followed: string[] = [];
  for (const c of CASES) {
    const name = c.label ?? c.tool;
    clock.advance(DAY_MS);
    await c.setup?.();
    const via = c.via?.() ?? client;
    const answer = await ok(c.tool, c.args(), via);
    const next = answer.next_step as NextStep | undefined;
    assert.ok(next, `${name} answers with a next_step`);
    assert.ok(tools.has(next.tool), `${name}: next_step names a listed tool (${next.tool})`);
    assert.equal(typeof next.why, 'string');
    assert.ok(next.why.length > 0);
    for (const field of next.needs ?? []) assert.ok(field === 'owner_token' || field in WRITTEN, `${name}: next_step needs ${field}`);
    const after = await ok(next.tool, completed(next), via);
    followed.push(`${name} -> ${next.tool}`);
    // A tick lists the other calls that give it evidence: each runs once completed, like the next_step.
    for (const step of (answer.evidence_needed ?? []) as NextStep[]) {
      await ok(step.tool, completed(step), via);
      followed.push(`${name} -> ${step.tool} (evidence)`);
    }
    // Where the follow-up answers with its own next_step, that one names a listed tool as well.
    if (after.next_step) assert.ok(tools.has(after.next_step.tool), `${name} -> ${next.tool}: its next_step names a listed tool`);
  }
  // The routes the tools lead an agent along (the loop, the mesh ladder, back to the field).
  assert.deepEqual(followed, [
    'improve_kernel -> run_loop_tick',
    'run_loop_tick without a kernel -> improve_kernel',
    'run_loop_tick over a kernel without evidence -> leave_feedback',
    'run_loop_tick over a kernel without evidence -> deposit_outcome (evidence)',
    'run_loop_tick over a kernel without evidence -> improve_kernel (evidence)',
    'run_loop_tick over a kernel with evidence -> mesh_compose',
    'run_loop_tick over a kernel with evidence -> leave_feedback (evidence)',
    'run_loop_tick over a kernel with evidence -> deposit_outcome (evidence)',
    'run_loop_tick over a kernel with evidence -> improve_kernel (evidence)',
    'mesh_match -> mesh_compose',
    'mesh_compose -> used_with',
    'network_sense -> match_capability',
    'leave_feedback -> run_loop_tick',
    'leave_trace -> sense_traces',
    'deposit_outcome -> run_loop_tick',
    'endorse -> sense_traces',
  ]);
});
