// The ARD manifest (Agentic Resource Discovery v0.91) served at /.well-known/ard.json and at the
// predecessor path /.well-known/ai-catalog.json: one entry per surface that exists today (the MCP
// Server Card of the whole server and of each toolset endpoint, at its reserved
// `<endpoint>/server-card`, with the card's version; the agent card; the REST API's OpenAPI), each with a
// domain-anchored `urn:air:<host>:<kind>:<id>` identifier and 2-5 representative queries drawn
// from the operations it serves.
import type { DiscoveryModel } from './model.ts';
import { agentSkills } from './agent-card.ts';
import { CARD_VERSION, OPENAPI_VERSION } from './paths.ts';
import { SERVER_DESCRIPTION } from './server-card.ts';
import { cardPaths, mcpServerCard, SERVER_CARD_MEDIA_TYPE } from './mcp-server-card.ts';
import { TOOLSET_NAMES, TOOLSETS } from '../mcp-toolsets.ts';

export const ARD_SPEC_VERSION = '0.91';

/** Natural-language queries an operation answers (for the registry's semantic index). */
const QUERIES: Record<string, string[]> = {
  list_yourself: ['list my MCP server in a public registry', 'register my A2A agent card so other agents can find it'],
  check_status: ['is my agent listing live yet'],
  list_active: ['which MCP servers and A2A agents are live right now'],
  probe_clean: ['check that my MCP server handshake works before publishing it'],
  check_liveness: ['is this MCP server still reachable'],
  score: ['score the quality of my agent card or MCP server'],
  score_rubric: ['how are MCP servers scored for trust'],
  capability_hash: ['hash a set of agent capabilities'],
  ard_search: ['find an agent or MCP server for a task'],
  search_active: ['search live MCP servers by topic'],
  match_capability: ['which listed servers offer these tools'],
  improve_kernel: ['improve my agent system prompt'],
  mesh_match: ['find partner agents that cover missing capabilities'],
};

const FALLBACK = ['public registry of MCP servers and A2A agents', 'find verified MCP servers and agents'];

/** 2 to 5 queries: those of the operations first, then the fallback. */
function representativeQueries(operations: readonly string[]): string[] {
  const out: string[] = [];
  for (const q of [...operations.flatMap((op) => QUERIES[op] ?? []), ...FALLBACK]) if (!out.includes(q)) out.push(q);
  return out.slice(0, 5);
}

interface Entry {
  identifier: string;
  displayName: string;
  type: string;
  url: string;
  description: string;
  version: string;
  tags: string[];
  capabilities: string[];
  representativeQueries: string[];
}

export function aiCatalogDocument(model: DiscoveryModel) {
  const urn = (kind: string, id: string) => `urn:air:${model.host}:${kind}:${id}`;
  const skills = agentSkills(model);
  const toolOps = [...new Set(model.tools.map((t) => t.operation))];
  const routeOps = [...new Set(model.routes.map((r) => r.operation))];
  const wholeCard = mcpServerCard(model);
  const entries: Entry[] = [
    {
      identifier: urn('mcp', 'rollcall'),
      displayName: 'Rollcall MCP server',
      type: SERVER_CARD_MEDIA_TYPE,
      url: model.url(cardPaths()[0]!),
      description: `${SERVER_DESCRIPTION} MCP over streamable HTTP at ${model.mcp.endpoint}.`,
      version: wholeCard.version,
      tags: ['mcp', 'registry', 'discovery'],
      capabilities: model.tools.map((t) => t.name),
      representativeQueries: representativeQueries(toolOps),
    },
    // One entry per toolset endpoint, each pointing at that endpoint's own card.
    ...TOOLSET_NAMES.map((toolset) => {
      const card = mcpServerCard(model, toolset);
      const names = [...TOOLSETS[toolset]];
      return {
        identifier: urn('mcp', `rollcall-${toolset}`),
        displayName: card.title,
        type: SERVER_CARD_MEDIA_TYPE,
        url: model.url(cardPaths(toolset)[0]!),
        description: card.description,
        version: card.version,
        tags: ['mcp', 'toolset', toolset],
        capabilities: names.filter((n) => model.hasTool(n)),
        representativeQueries: representativeQueries(names),
      };
    }),
    {
      identifier: urn('agent', 'rollcall'),
      displayName: 'Rollcall agent',
      type: 'application/a2a-agent-card+json',
      url: model.docs.agentCard,
      description: 'The Rollcall registry as an A2A agent: its skills are the registry tools.',
      version: CARD_VERSION,
      tags: ['a2a', 'agent', 'registry'],
      capabilities: skills.map((s) => s.id),
      representativeQueries: representativeQueries(toolOps),
    },
    {
      identifier: urn('api', 'rollcall'),
      displayName: 'Rollcall REST API',
      type: 'application/vnd.oai.openapi+json',
      url: model.docs.openapi,
      description: `The registry over plain REST: ${model.routes.length} routes, described in OpenAPI 3.1.`,
      version: OPENAPI_VERSION,
      tags: ['rest', 'openapi', 'registry'],
      capabilities: routeOps,
      representativeQueries: representativeQueries(routeOps),
    },
  ];
  return {
    specVersion: ARD_SPEC_VERSION,
    host: {
      name: 'Rollcall',
      displayName: 'Rollcall',
      url: model.base,
      description: SERVER_DESCRIPTION,
      documentationUrl: model.docs.llms,
    },
    entries,
  };
}
