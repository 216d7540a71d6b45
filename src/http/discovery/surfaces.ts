// What Rollcall offers, once, for the two catalogs that list it (ai-catalog.ts, ard-manifest.ts):
// the MCP Server Card of the whole server and of each toolset endpoint (at its reserved
// `<endpoint>/server-card`, with the card's version), the A2A agent card, the REST API's OpenAPI
// and the ARD registry API. Identifiers are Rollcall's own: `urn:air:<host>:<kind>:<id>`.
import type { DiscoveryModel } from './model.ts';
import { agentSkills } from './agent-card.ts';
import { CARD_VERSION, OPENAPI_VERSION } from './paths.ts';
import { SERVER_DESCRIPTION } from './server-card.ts';
import { cardPaths, mcpServerCard } from './mcp-server-card.ts';
import { TOOLSET_NAMES, TOOLSETS } from '../mcp-toolsets.ts';
import { ownUrn } from '../../registry/air.ts';
import { MEDIA_TYPES, registryBase } from '../../registry/ard-entry.ts';

/** Natural-language queries an operation answers (for a registry's semantic index). */
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

export interface Surface {
  identifier: string;
  displayName: string;
  mediaType: string;
  url: string;
  description: string;
  /** Absent for the registry API, which has no version of its own. */
  version?: string;
  tags: string[];
  /** The tools, skills or operations it serves (ARD's `capabilities`). */
  capabilities: string[];
  representativeQueries: string[];
}

/** Who operates both catalogs (the same members in the AI Catalog and ARD): the host name is its verifiable identifier. */
export const catalogHost = (model: DiscoveryModel) => ({ displayName: 'Rollcall', identifier: model.host, documentationUrl: model.docs.llms });

export function discoverySurfaces(model: DiscoveryModel): Surface[] {
  const urn = (kind: string, id: string) => ownUrn(model.base, kind, id);
  const toolOps = [...new Set(model.tools.map((t) => t.operation))];
  const routeOps = [...new Set(model.routes.map((r) => r.operation))];
  const wholeCard = mcpServerCard(model);
  return [
    {
      identifier: urn('mcp', 'rollcall'),
      displayName: 'Rollcall MCP server',
      mediaType: MEDIA_TYPES.mcpServerCard,
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
        mediaType: MEDIA_TYPES.mcpServerCard,
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
      mediaType: MEDIA_TYPES.a2aAgentCard,
      url: model.docs.agentCard,
      description: 'The Rollcall registry as an A2A agent: its skills are the registry tools.',
      version: CARD_VERSION,
      tags: ['a2a', 'agent', 'registry'],
      capabilities: agentSkills(model).map((s) => s.id),
      representativeQueries: representativeQueries(toolOps),
    },
    {
      identifier: urn('api', 'rollcall'),
      displayName: 'Rollcall REST API',
      mediaType: 'application/vnd.oai.openapi+json',
      url: model.docs.openapi,
      description: `The registry over plain REST: ${model.routes.length} routes, described in OpenAPI 3.1.`,
      version: OPENAPI_VERSION,
      tags: ['rest', 'openapi', 'registry'],
      capabilities: routeOps,
      representativeQueries: representativeQueries(routeOps),
    },
    {
      identifier: urn('registry', 'rollcall'),
      displayName: 'Rollcall agent registry',
      mediaType: MEDIA_TYPES.registry,
      // The ARD API's base URL: POST <url>search, POST <url>explore.
      url: registryBase(model.base),
      description: 'ARD registry search over every MCP server and A2A agent Rollcall knows: the synced catalog and the Live listings.',
      tags: ['registry', 'search', 'ard'],
      capabilities: ['search'],
      representativeQueries: representativeQueries(['ard_search', 'search_active']),
    },
  ];
}
