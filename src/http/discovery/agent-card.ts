// The A2A agent card, in two forms chosen by the request's A2A-Version header (discovery/index.ts),
// the way the A2A door chooses a request's version:
// - `A2A-Version: 1.0` (what v1 clients send, the @a2a-js/sdk's resolver included): the v1.0 card,
//   only fields the v1.0 AgentCard defines, so a strict v1 parser (protobuf JSON that refuses
//   unknown fields) reads it;
// - no header, the A2A default of 0.3: the same card plus the v0.3 top-level fields (protocolVersion,
//   url, preferredTransport), so v0.3 clients, which never send the header, read it too.
// Both list a 1.0 and a 0.3 JSON-RPC interface at the same endpoint. Skills are the tool catalog
// grouped by purpose; a tool no group names lands in "More tools", so none is lost.
// Every skill's tools run over A2A from a data part {"tool", "arguments"}; a skill's examples are
// the plain-words requests the A2A door understands (src/http/a2a/intents.ts), shown only where
// the operation they run is served.
import type { DiscoveryModel, ToolDoc } from './model.ts';
import { INTENTS } from '../a2a/intents.ts';
import { CARD_VERSION } from './paths.ts';
import { SERVER_DESCRIPTION } from './server-card.ts';

export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

/** A type, not an interface, so it is a `Record<string, unknown>` for signers that canonicalize any JSON object. */
export type AgentCard = {
  name: string;
  description: string;
  supportedInterfaces: { url: string; protocolBinding: 'JSONRPC'; protocolVersion: string }[];
  provider: { organization: string; url: string };
  version: string;
  documentationUrl: string;
  capabilities: { streaming: boolean; pushNotifications: boolean; extendedAgentCard: boolean };
  securitySchemes: Record<string, never>;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkill[];
  /** Added at integration by the identity module (JWS over the card without this field). */
  signatures?: unknown[];
};

/** The card v0.3 clients read: the v1.0 card and the v0.3 top-level fields. */
export type CompatAgentCard = AgentCard & { protocolVersion: '0.3.0'; url: string; preferredTransport: 'JSONRPC' };

interface Group {
  id: string;
  name: string;
  purpose: string;
  tags: string[];
  /** Tool names, or a pattern for families whose names share a word. */
  tools: readonly string[] | RegExp;
  /** Operations served without a tool (REST only) whose plain-words requests belong here. */
  operations?: readonly string[];
}

/** Skill groups by purpose (TOOLS.md sections). Only tools the catalog lists are shown. */
const GROUPS: Group[] = [
  {
    id: 'list-and-status',
    name: 'List and status',
    purpose: 'List an A2A agent card or an MCP server in the registry and follow its probe until it is Live.',
    tags: ['registry', 'listing', 'status'],
    tools: ['list_yourself', 'check_status', 'get_listing_status', 'join_and_contribute'],
  },
  {
    id: 'find',
    name: 'Find agents and MCP servers',
    purpose: 'Find Live agents and MCP servers by need or capability.',
    tags: ['search', 'discovery', 'capabilities'],
    tools: ['ard_search', 'search_active', 'match_capability', 'hyper_index', 'interop_resolve', 'compose_peers', 'seed_compositions'],
  },
  {
    id: 'probe-and-score',
    name: 'Probe and score',
    purpose: 'Probe any card or MCP URL for a real protocol handshake, re-check liveness, and hash capability sets.',
    tags: ['probe', 'handshake', 'score', 'trust'],
    tools: ['probe_clean', 'check_liveness', 'capability_hash'],
    operations: ['score'],
  },
  {
    id: 'founding-deal',
    name: 'Demo, feedback and founding seat',
    purpose: 'Take the free demo, leave real feedback and claim a founding seat or code.',
    tags: ['demo', 'feedback', 'founding'],
    tools: [
      'take_demo',
      'leave_feedback',
      'complete_founding_path',
      'get_founding_deal',
      'co_sign_founding',
      'get_co_sign_pairs',
      'install_product',
      'export_skills',
      'list_opportunities',
      'get_feedback_pricing',
      'list_event_pricing',
      'get_reciprocity',
      'get_incentives',
    ],
  },
  {
    id: 'kernel-loop-mesh',
    name: 'Kernel, loop and mesh',
    purpose: 'Value tools: a tighter system prompt, an improvement loop, partner matching and composition.',
    tags: ['kernel', 'loop', 'mesh'],
    tools: ['improve_kernel', 'run_loop_tick', 'mesh_match', 'mesh_compose', 'network_sense'],
  },
  {
    id: 'traces',
    name: 'Traces and compositions',
    purpose: 'Leave and read traces, endorse partners and run compositions.',
    tags: ['stigmergy', 'traces', 'composition'],
    tools: ['leave_trace', 'sense_traces', 'follow_trail', 'endorse', 'used_with', 'deposit_outcome', 'execute_compose', 'attractor_targets', 'interop_session'],
  },
  {
    id: 'network',
    name: 'Network economics',
    purpose: 'Read-only analytics over the network: value, growth, costs and runs.',
    tags: ['analytics', 'economics'],
    tools: ['get_exonomics', 'network_value', 'get_acceleration', 'hyper_index', 'cost_model', 'abundance_rank', 'zero_mc_pack', 's_curve_board', 'get_platform_cost', 'get_agent_runs'],
  },
  {
    id: 'identity',
    name: 'Identity and attestation',
    purpose: 'Bind keys to listings and sign or verify attestations.',
    tags: ['identity', 'attestation', 'jws'],
    tools: ['bind_identity', 'attest', 'verify_attestation'],
  },
  {
    id: 'collab',
    name: 'Collaboration',
    purpose: 'Multi-party collab workflows, sessions and the collab market.',
    tags: ['collab', 'workflow', 'market'],
    tools: /collab/,
  },
];

function groupOf(tool: ToolDoc): string {
  const g = GROUPS.find((g) => (g.tools instanceof RegExp ? g.tools.test(tool.name) : g.tools.includes(tool.name)));
  return g?.id ?? 'more-tools';
}

export function agentSkills(model: DiscoveryModel): AgentSkill[] {
  const byGroup = new Map<string, ToolDoc[]>();
  for (const tool of model.tools) {
    const id = groupOf(tool);
    byGroup.set(id, [...(byGroup.get(id) ?? []), tool]);
  }
  const groups: Group[] = [...GROUPS, { id: 'more-tools', name: 'More tools', purpose: 'Further registry tools.', tags: ['tools'], tools: [] }];
  return groups
    .filter((g) => byGroup.has(g.id))
    .map((g) => {
      const tools = byGroup.get(g.id)!;
      const runs = new Set([...tools.map((t) => t.operation), ...(g.operations ?? []).filter((op) => model.present(op))]);
      const examples = INTENTS.filter((i) => runs.has(i.operation)).flatMap((i) => i.examples);
      return {
        id: g.id,
        name: g.name,
        description: `${g.purpose} Tools: ${tools.map((t) => t.name).join(', ')}.`,
        tags: [...g.tags, ...tools.map((t) => t.name)],
        ...(examples.length ? { examples } : {}),
        inputModes: ['application/json', 'text/plain'],
        outputModes: ['application/json'],
      };
    });
}

/** The v1.0 card (served for `A2A-Version: 1.0`). */
export function agentCardDocument(model: DiscoveryModel): AgentCard {
  return {
    name: 'Rollcall',
    description: `${SERVER_DESCRIPTION} Ask it in plain words to find an agent or MCP server, list you, check your status or score a card (the skills' examples); a data part {"tool": "<name>", "arguments": {...}} runs any skill's tool, and every skill is also an MCP tool at ${model.mcp.endpoint}.`,
    supportedInterfaces: [
      { url: model.a2aEndpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: model.a2aEndpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Rollcall', url: model.base },
    version: CARD_VERSION,
    documentationUrl: model.docs.llms,
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: {},
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json', 'text/plain'],
    skills: agentSkills(model),
  };
}

/** The card for requests without A2A-Version (v0.3 clients). */
export function compatAgentCardDocument(model: DiscoveryModel): CompatAgentCard {
  return { ...agentCardDocument(model), protocolVersion: '0.3.0', url: model.a2aEndpoint, preferredTransport: 'JSONRPC' };
}
