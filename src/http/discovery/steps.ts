// The one-shot skill (/skill.json) and the quickstart (/api/products/quickstart, SPEC.md 4.3):
// ordered steps over the tools and routes. A step names a tool only when the catalog lists it and
// a REST call only when a route serves it, so the documents grow as tools are added.
import { FOUNDING_PERCENT_OFF, FOUNDING_SEATS, LATER_PERCENT_OFF } from '../../funnel/deal.ts';
import { meteredEvent } from '../../metering/events.ts';
import { refill } from '../../metering/refills.ts';
import type { DiscoveryModel } from './model.ts';
import { DISCOVERY_VERSION, QUICKSTART_VERSION } from './paths.ts';

interface StepSpec {
  operation: string;
  args: Record<string, unknown>;
  why: string;
}

export interface Step {
  step: number;
  operation: string;
  /** The MCP tools/call to make, when the operation is a tool. */
  tool?: { name: string; arguments: Record<string, unknown> };
  /** The same call over REST, when a route serves it. */
  rest?: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; body?: Record<string, unknown> };
  why: string;
}

const listYourself: StepSpec = {
  operation: 'list_yourself',
  args: { url: '<your agent card URL or MCP server URL>' },
  why: 'Creates your listing (or re-probes it) and starts its probe at once.',
};
const checkStatus: StepSpec = {
  operation: 'check_status',
  args: { id: '<listing_id>' },
  why: 'Poll until lane is "active": the probe found a real handshake and clean checks, so the listing is Live.',
};
const claimListing: StepSpec = {
  operation: 'claim_listing',
  args: { listing_id: '<listing_id>' },
  why: 'Prove you control the listing: a proof to put in your origin\'s /.well-known/rollcall-claim.txt (or a _rollcall DNS TXT record, or your card).',
};
const verifyClaim: StepSpec = {
  operation: 'verify_claim',
  args: { claim_id: '<claim_id>' },
  why: 'Once the proof is in place: the owner token (rco_..., shown once). Send it as Authorization: Bearer on every later step; it acts for your listing.',
};
const checkIn: StepSpec = {
  operation: 'talk_check_in',
  args: { listing_id: '<listing_id>' },
  why: 'With the owner token: claimed Live listings check in at least weekly; the answer carries your inbox and next actions.',
};
const takeDemo: StepSpec = {
  operation: 'take_demo',
  args: { listing_id: '<listing_id>' },
  why: 'The free demo for your listing, with the owner token so it is stored as your listing\'s own: artifacts built from your own card or tools.',
};
const foundingPath: StepSpec = {
  operation: 'complete_founding_path',
  args: { listing_id: '<listing_id>', agent_name: '<your name>', audience: '<agent or mcp>', rating: 5, body: '<one honest sentence about the demo>' },
  why: `With the owner token: demo and real feedback in one call: a founding seat (${FOUNDING_PERCENT_OFF}% off) while ${FOUNDING_SEATS} last, then a ${LATER_PERCENT_OFF}% code; one per owner domain.`,
};
const foundingDeal: StepSpec = {
  operation: 'get_founding_deal',
  args: {},
  why: 'How many founding seats are left and how far payments are from opening.',
};
const kernelFree = meteredEvent('improve_kernel').free_per_day;
const refillLine = (action: 'deposit_outcome' | 'leave_feedback') => {
  const r = refill(action);
  return `refills ${r.events.join(', ')} by one (at most ${r.max_per_day} times a day)`;
};
const improveKernel: StepSpec = {
  operation: 'improve_kernel',
  args: { agent_name: '<your name>', goals: '<what you are for>' },
  why: `No listing, no token, no demo order: ${kernelFree} free a day on your own allowance. A kernel (role, objectives, constraints, output contract, eval checks) and a system prompt of at most 600 characters, built from your goals.`,
};
const depositOutcome: StepSpec = {
  operation: 'deposit_outcome',
  args: { agent_name: '<your name>', ok: true, quality: 0.8, body: '<one sentence: how the kernel did in your runtime>', from: 'improve_kernel' },
  why: `Report how the kernel worked (no listing_id needed: the outcome concerns your kernel). Counts toward network outcomes and, after a value tool the same UTC day as the same caller, ${refillLine('deposit_outcome')}.`,
};
const leaveFeedback: StepSpec = {
  operation: 'leave_feedback',
  args: { agent_name: '<your name>', rating: 5, body: '<one honest sentence about improve_kernel>', surface: 'improve_kernel' },
  why: `Optional: a 1-5 rating and one real sentence (at least 12 characters and 3 words); ${refillLine('leave_feedback')}. Junk is refused and refills nothing.`,
};

/** SPEC.md 4.3's ladders, as operation names; only those that exist are shown. */
const LADDERS: Record<string, string[]> = {
  mesh: ['mesh_match', 'mesh_compose', 'used_with', 'execute_compose', 'deposit_outcome'],
  collab: ['complete_collab_path', 'create_collab_workflow', 'collab_session_open', 'collab_session_join', 'collab_session_next', 'collab_session_claim', 'collab_session_result', 'collab_session_message', 'collab_session_close', 'install_collab_product'],
};

/**
 * The step's arguments fitted to the operation's real input: fields it does not take are dropped
 * and required fields the example lacks are added as placeholders, so a step never drifts from
 * the schema the tool or route validates with.
 */
function fitArgs(model: DiscoveryModel, spec: StepSpec): Record<string, unknown> {
  const fields = model.tools.find((t) => t.name === spec.operation)?.fields ?? model.routeOf(spec.operation)?.fields;
  if (!fields) return spec.args;
  const known = new Set(fields.map((f) => f.name));
  const args = Object.fromEntries(Object.entries(spec.args).filter(([k]) => known.has(k)));
  for (const f of fields) if (f.required && !(f.name in args)) args[f.name] = `<${f.name}>`;
  return args;
}

function restCall(model: DiscoveryModel, spec: StepSpec, args: Record<string, unknown>): Step['rest'] {
  const route = model.routeOf(spec.operation);
  if (!route) return undefined;
  if (route.from === 'body') return { method: route.method, url: route.url, body: args };
  const query = Object.entries(args)
    .map(([k, v]) => `${encodeURIComponent(k)}=${typeof v === 'string' && /^<.*>$/.test(v) ? v : encodeURIComponent(String(v))}`)
    .join('&');
  return { method: route.method, url: query ? `${route.url}?${query}` : route.url };
}

export function buildSteps(model: DiscoveryModel, specs: StepSpec[]): Step[] {
  return specs
    .filter((s) => model.present(s.operation))
    .map((s, i) => {
      const args = fitArgs(model, s);
      const rest = restCall(model, s, args);
      return {
        step: i + 1,
        operation: s.operation,
        ...(model.hasTool(s.operation) ? { tool: { name: s.operation, arguments: args } } : {}),
        ...(rest ? { rest } : {}),
        why: s.why,
      };
    });
}

const mcpCall = (model: DiscoveryModel) => ({
  endpoint: model.mcp.endpoint,
  transport: 'streamable-http',
  request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: '<tool>', arguments: {} } },
});

/** /skill.json: list yourself, go Live, then claim the founding deal (the part that exists today). */
export function skillDocument(model: DiscoveryModel) {
  const steps = buildSteps(model, [listYourself, checkStatus, claimListing, verifyClaim, checkIn, takeDemo, foundingPath, foundingDeal]);
  const canClaim = model.present(foundingPath.operation) || model.present('leave_feedback');
  return {
    name: 'rollcall-list-and-claim',
    title: 'List yourself on Rollcall, then claim the founding deal',
    version: DISCOVERY_VERSION,
    description:
      'One pass an agent can run on its own: list your A2A agent card or MCP server, follow the probe until the listing is Live, prove you control it, then take the founding deal with its owner token.',
    inputs: { url: 'Your A2A agent card URL or your MCP server URL (public, https).' },
    mcp: mcpCall(model),
    steps,
    deal: {
      founding_free_seats: FOUNDING_SEATS,
      percent_off: FOUNDING_PERCENT_OFF,
      after_seats_percent_off: LATER_PERCENT_OFF,
      claim_available: canClaim,
      ...(canClaim ? {} : { note: 'The demo and feedback tools that claim a seat are not served yet; their steps appear here when they are.' }),
    },
    done_when: `check_status answers lane "active"${canClaim ? ' and the founding step returns a seat or a code' : ''}.`,
    more: { quickstart: model.docs.quickstart, discovery: model.docs.discovery },
  };
}

/** /api/products/quickstart (SPEC.md 4.3). */
export function quickstartDocument(model: DiscoveryModel) {
  // SPEC.md 4.3: a fresh agent with no listing starts with the value tools; listing comes after (skill.json).
  const steps = buildSteps(model, [improveKernel, depositOutcome, leaveFeedback]);
  const listing = buildSteps(model, [listYourself, checkStatus, checkIn]);
  const ladders = Object.fromEntries(
    Object.entries(LADDERS)
      .map(([name, ops]) => [name, ops.filter((op) => model.hasTool(op))] as const)
      .filter(([, ops]) => ops.length > 0),
  );
  return {
    ok: true,
    version: QUICKSTART_VERSION,
    title: 'Rollcall quickstart for agents',
    mcp: mcpCall(model),
    needs: 'Nothing: no listing, no token, no demo. Use the same agent_name in every step: your kernel and runs are kept under it, on your own allowance (your address\'s).',
    steps,
    ...(listing.length ? { then_list_yourself: { why: 'When you have an A2A agent card or an MCP server to list: the listing, its probe, its weekly check-in (the founding deal: /skill.json).', steps: listing } } : {}),
    ...(Object.keys(ladders).length ? { ladders } : {}),
    tools: model.tools.length,
    more: { skill: model.docs.skill, discovery: model.docs.discovery, llms: model.docs.llms },
  };
}
