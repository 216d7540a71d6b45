// The path a new agent follows, from listing to value, through the official MCP SDK client: it
// connects to the registry toolset (docs/guide/mcp.md: connect there first), lists a real MCP server
// (server-everything), and from then on calls only what each answer's next_step says, at the
// endpoint it names when it names one, writing only what `needs` leaves to it (a rating and a
// sentence, goals, an outcome), with the owner token once the claim gives it. The walk must reach a
// founding seat, a kernel, a loop tick and a composition; every answer on the way is small enough
// for an agent's context (check_status at most 3 KB, list_yourself 4 KB, improve_kernel and
// run_loop_tick 8 KB: the answer's JSON, which MCP carries once more as a text block).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, postJson, putTxt, startApp, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { freePort, startEverything, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import type { Step } from './helpers/next-steps.ts';
import { repeated } from './helpers/repeated.ts';

let app: TestApp;
let everything: Peer;
/** Another publisher's agent (a translator on a host of its own), Live: the partner a composition finds. */
let partner: AgentPeer;
let base: string;

before(async () => {
  [everything, partner] = await Promise.all([startEverything(), startA2aAgent({ host: '127.0.0.2' })]);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', PUBLIC_BASE_URL: base } });
  await app.http.listen({ port, host: '127.0.0.1' });
  const listed = await postJson(app, '/api/publish', { url: partner.cardUrl });
  await waitForLane(app, listed.body.listing_id, ['active']);
});
after(async () => {
  await app?.close();
  await Promise.all([everything?.close(), partner?.close()]);
});

/** The largest answer (JSON of structuredContent) each tool may give on the path. */
const MAX_BYTES: Record<string, number> = { check_status: 3072, get_listing_status: 3072, list_yourself: 4096, improve_kernel: 8192, run_loop_tick: 8192 };

/** An agent's MCP sessions: one per endpoint, with its owner token once it has one. */
function agent() {
  const sessions = new Map<string, Client>();
  let token: string | undefined;
  const sizes: { tool: string; bytes: number }[] = [];
  const at = async (endpoint: string) => {
    const key = `${endpoint} ${token ?? ''}`;
    let c = sessions.get(key);
    if (!c) {
      c = new Client({ name: 'path-walker', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(endpoint), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : undefined));
      sessions.set(key, c);
    }
    return c;
  };
  return {
    sizes,
    setToken: (t: string) => (token = t),
    async call(endpoint: string, tool: string, args: Record<string, unknown>): Promise<any> {
      const r = await (await at(endpoint)).callTool({ name: tool, arguments: args });
      const sc = r.structuredContent as any;
      sizes.push({ tool, bytes: JSON.stringify(sc).length });
      return { isError: r.isError === true, sc };
    },
    close: () => Promise.all([...sessions.values()].map((c) => c.close())),
  };
}

/** What the agent writes itself where a step's `needs` leave it a field (the owner token travels as a header). */
const WRITES: Record<string, unknown> = {
  rating: 4,
  body: 'The demo listed every tool with a call I could run, and the echo call worked first time.',
  goals: ['Explain which tool exercises which MCP feature', 'Never invent a tool the server does not have', 'Answer within one minute'],
  ok: true,
  quality: 0.9,
  goal: 'translate the text into French',
};

function written(step: Step): Record<string, unknown> {
  const args = { ...step.args };
  for (const need of step.needs ?? []) if (need in WRITES) args[need] = WRITES[need];
  return args;
}

test(`an agent follows next_step from list_yourself to a seat, a kernel, a loop tick and a composition (${engine})`, async () => {
  const a = agent();
  const registry = `${base}/api/mcp/registry`;
  const called: string[] = ['list_yourself'];
  const answers = new Map<string, any>();
  let where = registry;
  let answer = (await a.call(where, 'list_yourself', { url: everything.url.replace('127.0.0.1', 'localhost') })).sc;
  assert.deepEqual(repeated(answer), [], 'list_yourself says nothing twice');
  // The walk ends with the loop tick that reads the composition's outcome: listing to value and back into the loop.
  while (!(called.at(-1) === 'run_loop_tick' && called.includes('deposit_outcome'))) {
    assert.ok(called.length < 40, `the path ends: ${called.join(' -> ')}`);
    const step: Step | undefined = answer.next_step;
    assert.ok(step, `${called.at(-1)} answers a next_step`);
    where = step.endpoint ?? where;
    const r = await a.call(where, step.tool, written(step));
    assert.equal(r.isError, false, `${called.join(' -> ')} -> ${step.tool} ${JSON.stringify(step.args)} at ${where}: ${JSON.stringify(r.sc.error)}`);
    called.push(step.tool);
    answer = r.sc;
    answers.set(step.tool, answer);
    if (MAX_BYTES[step.tool]) assert.deepEqual(repeated(answer), [], `${step.tool} says nothing twice`);
    // What the agent does between calls: its proof goes where the claim says; the token it gets is its own.
    if (step.tool === 'claim_listing') await putTxt(answer.methods.find((m: { method: string }) => m.method === 'dns_txt').where, answer.proof);
    if (step.tool === 'verify_claim') a.setToken(answer.owner_token);
    // Polling: the status says to ask again until the probe has made the listing Live.
    if (step.tool === 'check_status' && answer.lane !== 'active') await new Promise((res) => setTimeout(res, 100));
  }
  const path = called.filter((tool, i) => tool !== called[i - 1]).join(' -> ');
  assert.equal(
    path,
    'list_yourself -> check_status -> claim_listing -> verify_claim -> check_status -> take_demo -> leave_feedback -> install_product -> run_loop_tick -> improve_kernel -> run_loop_tick -> mesh_compose -> used_with -> execute_compose -> deposit_outcome -> run_loop_tick',
  );
  assert.equal(answers.get('leave_feedback').founding.outcome, 'seat', 'the demo feedback takes a founding seat');
  assert.ok(answers.get('improve_kernel').system_prompt_short.includes((WRITES.goals as string[])[0]!), 'the kernel keeps the goal as written');
  assert.equal(answers.get('execute_compose').status, 'completed');
  assert.notEqual(answers.get('deposit_outcome').outcome.listing_id, answers.get('verify_claim').listing_id, "the outcome is the partner's");
  for (const { tool, bytes } of a.sizes) if (MAX_BYTES[tool]) assert.ok(bytes <= MAX_BYTES[tool], `${tool}: ${bytes} bytes, at most ${MAX_BYTES[tool]}`);
  await a.close();
});
