// Every next_step a caller meets leads somewhere when followed as written. From the first calls an
// agent makes (as the owner of a Live A2A listing and of a Live MCP server, each with its owner
// token, and as a caller without one), each suggested next_step is called as suggested, filling
// only the fields its `needs` names (`owner_token`: the caller's own), and then each next_step of
// that answer too: two hops. A hop may be refused for the state of the world (an allowance used
// up, a seat taken, a step not ready), never because the hint was wrong: a tool that does not
// exist, args its schema refuses, a token or an argument the hint did not say it needs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { ownListing, asOwner } from './helpers/owners.ts';
import { filledArgs, stepsIn, type Step } from './helpers/next-steps.ts';
import { freePort, startEverything, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { toolsetOf, toolsetPath } from '../src/http/mcp-toolsets.ts';

/** Error codes that say the hint itself was wrong, not the moment it was followed in. */
const HINT_WRONG = new Set(['invalid_input', 'owner_token_required', 'token_required', 'token_mismatch', 'listing_required', 'needs_arguments', 'not_found', 'placeholder_text']);
const MAX_CALLS = 120;

let app: TestApp;
let everything: Peer;
let agent: AgentPeer;
let base: string;
const ids = { agent: '', mcp: '' };
const tokens = { agent: '', mcp: '' };

before(async () => {
  everything = await startEverything();
  agent = await startA2aAgent({ host: '127.0.0.2' });
  // Answers name endpoints by the public URL: this app's own, so a step is followed where it says.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', REPUBLISH_MIN_INTERVAL_S: '0', PUBLIC_BASE_URL: base } });
  await app.http.listen({ port, host: '127.0.0.1' });
  ids.agent = (await postJson(app, '/api/publish', { url: agent.cardUrl })).body.listing_id;
  ids.mcp = (await postJson(app, '/api/publish', { url: everything.url })).body.listing_id;
  await waitForLane(app, ids.agent, ['active']);
  await waitForLane(app, ids.mcp, ['active']);
  tokens.agent = await ownListing(app, ids.agent);
  tokens.mcp = await ownListing(app, ids.mcp);
});

after(async () => {
  await app?.close();
  await everything?.close();
  await agent?.close();
});

/** The steps an answer suggests to its caller: under `next_step` or `next_steps` (a partner's call to join, listed for the caller to pass on, is another caller's). */
function callerSteps(value: unknown, out: Step[] = [], depth = 0): Step[] {
  if (depth > 12 || !value || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) callerSteps(v, out, depth + 1);
    return out;
  }
  for (const [key, v] of Object.entries(value)) {
    if (key === 'next_step' || key === 'next_steps') out.push(...stepsIn(v));
    else callerSteps(v, out, depth + 1);
  }
  return out;
}

async function client(headers?: Record<string, string>, url = `${base}/api/mcp`): Promise<Client> {
  const c = new Client({ name: 'rollcall-next-step-chains', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : undefined));
  return c;
}

interface Answer {
  ok: boolean;
  code?: string;
  body: unknown;
}

async function call(c: Client, tool: string, args: Record<string, unknown>): Promise<Answer> {
  try {
    const r = await c.callTool({ name: tool, arguments: args });
    const sc = r.structuredContent as { ok?: boolean; error?: { code?: string } } | undefined;
    if (r.isError) return { ok: false, code: sc?.error?.code ?? 'error', body: sc };
    return { ok: true, body: sc };
  } catch (err) {
    // A JSON-RPC error: an unknown tool or params the door refused (-32602).
    return { ok: false, code: `rpc ${(err as { code?: number }).code ?? '?'}: ${(err as Error).message}`, body: undefined };
  }
}

type As = 'agent' | 'mcp' | 'anonymous';

/** The first calls, each as a caller who would make it. */
function startCalls(): { as: As; tool: string; args: Record<string, unknown> }[] {
  const who = { agent_name: 'chain-agent' };
  return [
    { as: 'anonymous', tool: 'ard_search', args: { q: 'add two numbers' } },
    { as: 'anonymous', tool: 'check_status', args: { id: ids.agent } },
    { as: 'anonymous', tool: 'list_yourself', args: { url: agent.cardUrl } },
    { as: 'agent', tool: 'take_demo', args: { listing_id: ids.agent } },
    { as: 'mcp', tool: 'take_demo', args: { listing_id: ids.mcp } },
    { as: 'agent', tool: 'improve_kernel', args: { ...who, listing_id: ids.agent, goals: ['answer billing questions precisely', 'escalate refunds to a human'] } },
    { as: 'agent', tool: 'run_loop_tick', args: { listing_id: ids.agent } },
    { as: 'anonymous', tool: 'mesh_match', args: { ...who, capabilities: ['get-sum', 'translate text'] } },
    { as: 'agent', tool: 'mesh_compose', args: { ...who, listing_id: ids.agent, capabilities: ['get-sum', 'echo'] } },
    { as: 'agent', tool: 'interop_session', args: { ...who, listing_id: ids.agent, partner_listing_id: ids.mcp, capability: 'get-sum' } },
    { as: 'anonymous', tool: 'network_sense', args: {} },
    { as: 'anonymous', tool: 'sense_traces', args: { listing_id: ids.mcp } },
    { as: 'anonymous', tool: 'get_exonomics', args: {} },
    { as: 'anonymous', tool: 'list_opportunities', args: {} },
    { as: 'agent', tool: 'join_and_contribute', args: { listing_id: ids.agent } },
    { as: 'agent', tool: 'collab_session_open', args: { ...who, listing_id: ids.agent, goal: 'Add up the weekly totals and translate the summary', partners: [{ listing_id: ids.mcp, role: 'adder' }] } },
  ];
}

test(`every next_step met on the way leads to a call that runs, two hops deep (${engine})`, async () => {
  const anonymous = await client();
  const owners = { agent: await client(asOwner(tokens.agent)), mcp: await client(asOwner(tokens.mcp)) };
  const starts = startCalls();
  const callers = { anonymous, agent: owners.agent, mcp: owners.mcp };
  const wrong: string[] = [];
  const seen = new Set<string>();
  let calls = 0;
  const follow = async (step: Step, as: 'agent' | 'mcp' | 'anonymous', from: string, depth: number): Promise<void> => {
    const args = filledArgs(step);
    const key = `${as} ${step.tool} ${JSON.stringify(args)}`;
    if (seen.has(key) || calls >= MAX_CALLS) return;
    seen.add(key);
    calls++;
    // The owner token only when the hint says so: a hint that needs it and does not say is wrong.
    const c = step.needs?.includes('owner_token') ? callers[as === 'anonymous' ? 'agent' : as] : anonymous;
    const answer = await call(c, step.tool, args);
    if (!answer.ok && (answer.code?.startsWith('rpc') || HINT_WRONG.has(answer.code ?? ''))) {
      wrong.push(`${from} -> ${step.tool} ${JSON.stringify(step.args)} (needs ${JSON.stringify(step.needs ?? [])}): ${answer.code} ${JSON.stringify(answer.body).slice(0, 300)}`);
      return;
    }
    if (depth < 2 && answer.ok) for (const next of callerSteps(answer.body)) await follow(next, as, `${from} -> ${step.tool}`, depth + 1);
  };
  let followed = 0;
  for (const start of starts) {
    const first = await call(callers[start.as], start.tool, start.args);
    assert.ok(first.ok || !HINT_WRONG.has(first.code ?? ''), `${start.tool}: ${first.code} ${JSON.stringify(first.body)}`);
    for (const step of callerSteps(first.body)) {
      followed++;
      await follow(step, start.as, start.tool, 1);
    }
  }
  const tools = new Set([...seen].map((k) => k.split(' ')[1]));
  assert.ok(followed >= 10 && tools.size >= 10, `the first calls suggested ${followed} next steps, ${tools.size} tools followed`);
  assert.deepEqual(wrong, [], `next steps that did not run as suggested:\n${wrong.join('\n')}`);
  await Promise.all([anonymous.close(), owners.agent.close(), owners.mcp.close()]);
});

test(`from the toolset endpoints: a next_step of a tool served elsewhere names the endpoint that serves it, and runs there as suggested (${engine})`, async () => {
  // One client per endpoint and caller, opened when first needed.
  const opened = new Map<string, Promise<Client>>();
  const at = (url: string, as: As) => {
    const key = `${url} ${as}`;
    if (!opened.has(key)) opened.set(key, client(as === 'anonymous' ? undefined : asOwner(tokens[as]), url));
    return opened.get(key)!;
  };
  const home = (tool: string) => `${base}${toolsetPath(toolsetOf(tool)!)}`;
  // The finding: check_status at the registry toolset suggested take_demo (the funnel's), and that
  // endpoint refused it. Each step of a tool served elsewhere now names where.
  const status = await call(await at(home('check_status'), 'anonymous'), 'check_status', { id: ids.mcp });
  const away = callerSteps(status.body).filter((s) => toolsetOf(s.tool) !== 'registry');
  assert.ok(away.length >= 1, JSON.stringify(status.body).slice(0, 400));
  for (const step of away) assert.equal(step.endpoint, home(step.tool), JSON.stringify(step));
  // At the endpoint that serves every tool, no step names one.
  const whole = await call(await at(`${base}/api/mcp`, 'anonymous'), 'check_status', { id: ids.mcp });
  assert.ok(callerSteps(whole.body).every((s) => s.endpoint === undefined));

  const wrong: string[] = [];
  const seen = new Set<string>();
  let calls = 0;
  let elsewhere = 0;
  const follow = async (step: Step, as: As, from: string, where: string, depth: number): Promise<void> => {
    const url = step.endpoint ?? where;
    const args = filledArgs(step);
    const key = `${as} ${url} ${step.tool} ${JSON.stringify(args)}`;
    if (seen.has(key) || calls >= MAX_CALLS) return;
    seen.add(key);
    calls++;
    if (step.endpoint) elsewhere++;
    const answer = await call(await at(url, step.needs?.includes('owner_token') ? (as === 'anonymous' ? 'agent' : as) : 'anonymous'), step.tool, args);
    // An rpc error here is most often -32602: the tool is not served at the endpoint the hint left the caller at.
    if (!answer.ok && (answer.code?.startsWith('rpc') || HINT_WRONG.has(answer.code ?? ''))) {
      wrong.push(`${from} -> ${step.tool} at ${url}: ${answer.code} ${JSON.stringify(answer.body).slice(0, 300)}`);
      return;
    }
    if (depth < 2 && answer.ok) for (const next of callerSteps(answer.body)) await follow(next, as, `${from} -> ${step.tool}`, url, depth + 1);
  };
  for (const start of startCalls()) {
    const where = home(start.tool);
    const first = await call(await at(where, start.as), start.tool, start.args);
    assert.ok(first.ok || !HINT_WRONG.has(first.code ?? ''), `${start.tool}: ${first.code} ${JSON.stringify(first.body)}`);
    for (const step of callerSteps(first.body)) await follow(step, start.as, start.tool, where, 1);
  }
  assert.ok(elsewhere >= 5, `${elsewhere} steps led to another endpoint`);
  assert.deepEqual(wrong, [], `next steps that did not run where they said:\n${wrong.join('\n')}`);
  await Promise.all([...opened.values()].map(async (c) => (await c).close()));
});
