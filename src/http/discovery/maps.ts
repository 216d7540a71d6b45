// The JSON maps: /.well-known/mcp.json (a pointer to the MCP endpoint), /api/mcp-registry/server.json
// (this server in the official MCP registry's server.json format), /discovery.json (the full machine
// map) and /agentmap.json (the compact one).
import type { DiscoveryModel } from './model.ts';
import { A2A_PATH, DISCOVERY_VERSION, OPENAPI_VERSION } from './paths.ts';
import { MCP_PROTOCOL_VERSIONS, SERVER_DESCRIPTION } from './server-card.ts';
import { toolsetLinks } from '../mcp-toolsets.ts';

/** The newest published server.json schema of the official MCP registry. */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Identity values that only the identity module knows; filled at integration (see registerDiscovery). */
export interface IdentityExtras {
  /** The `_mcp` DNS TXT record's text (v, url, proto, pk, scope, cap, priority). */
  mcpDnsTxt?: string;
}

/** How to reach the MCP endpoint: the same facts in mcp.json and discovery.json. */
const mcpEndpoint = (model: DiscoveryModel) => ({
  endpoint: model.mcp.endpoint,
  aliases: model.mcp.aliases,
  transport: 'streamable-http',
  stateless: true,
  server_version: model.mcp.serverVersion,
  protocol_versions: [...MCP_PROTOCOL_VERSIONS],
  // Smaller tool lists per toolset: connect to the registry toolset first.
  ...toolsetLinks(model.base),
});

export function mcpJsonDocument(model: DiscoveryModel) {
  return {
    name: 'rollcall',
    title: 'Rollcall registry',
    description: SERVER_DESCRIPTION,
    ...mcpEndpoint(model),
    server_card: model.docs.serverCard,
    registry_server_json: model.docs.mcpRegistryServer,
    discovery: model.docs.discovery,
    tools_count: model.tools.length,
    oauth_required: false,
  };
}

/** `rollcall.example.org` -> `org.example.rollcall` (an IP literal or a single label stays as it is). */
export function reverseDns(host: string): string {
  return /^[\d.]+$/.test(host) || !host.includes('.') ? host : host.split('.').reverse().join('.');
}

/** server.json (official MCP registry format): only the MCP remotes, named after PUBLIC_BASE_URL's host. */
export function serverJsonDocument(model: DiscoveryModel) {
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: `${reverseDns(model.host)}/rollcall`,
    title: 'Rollcall registry',
    description: 'Registry of A2A agents and MCP servers, each probed for real before it is listed.',
    version: model.mcp.serverVersion,
    websiteUrl: model.base,
    remotes: model.mcp.paths.map((p) => ({ type: 'streamable-http' as const, url: model.url(p) })),
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        server_card: model.docs.serverCard,
        discovery: model.docs.discovery,
        tools: model.tools.length,
      },
    },
  };
}

export function discoveryDocument(model: DiscoveryModel, extras: IdentityExtras = {}) {
  const d = model.docs;
  const rubric = model.routeOf('score_rubric');
  const score = model.routeOf('score');
  return {
    ok: true,
    version: DISCOVERY_VERSION,
    name: 'Rollcall',
    description: SERVER_DESCRIPTION,
    base_url: model.base,
    documents: {
      ai_catalog: d.aiCatalog,
      ard: d.ard,
      agent_card: d.agentCard,
      agent_json: d.agentJson,
      mcp_json: d.mcpJson,
      server_card: d.serverCard,
      mcp_server_cards: model.mcpServerCards,
      mcp_registry_server_json: d.mcpRegistryServer,
      skill: d.skill,
      quickstart: d.quickstart,
      discovery: d.discovery,
      agentmap: d.agentmap,
      openapi: d.openapi,
      llms_txt: d.llms,
      llms_full_txt: d.llmsFull,
      ai_txt: d.aiTxt,
      robots_agent_txt: d.robotsAgent,
    },
    mcp: {
      ...mcpEndpoint(model),
      server_card: d.serverCard,
      tools: model.tools.map((t) => ({ name: t.name, title: t.title, description: t.description, ...(t.aliasOf ? { alias_of: t.aliasOf } : {}) })),
    },
    a2a: {
      agent_card: d.agentCard,
      endpoint: model.a2aEndpoint,
      protocol_versions: ['1.0', '0.3'],
      binding: 'JSONRPC',
    },
    rest: {
      openapi: d.openapi,
      openapi_version: OPENAPI_VERSION,
      routes: model.routes.map((r) => ({ method: r.method, path: r.path, url: r.url, summary: r.summary, operation: r.operation, input: r.from })),
    },
    score: {
      ...(rubric ? { rubric: rubric.url } : {}),
      ...(score ? { score: `${score.url}?url=<card or MCP URL>` } : {}),
    },
    identity: {
      jwks: model.identity.jwks,
      signature_agent_card: model.identity.signatureAgentCard,
      http_message_signatures_directory: model.identity.httpMessageSignaturesDirectory,
      mcp_registry_auth: model.identity.mcpRegistryAuth,
      dns_txt: { name: `_mcp.${model.host}`, type: 'TXT', value: extras.mcpDnsTxt ?? null },
    },
    policies: { ai_txt: d.aiTxt, robots_agent_txt: d.robotsAgent },
  };
}

/** The compact map: surfaces grouped by what an agent wants to do. */
export function agentMapDocument(model: DiscoveryModel) {
  const d = model.docs;
  return {
    version: DISCOVERY_VERSION,
    name: 'Rollcall',
    base_url: model.base,
    start: [d.quickstart, d.skill, d.llms],
    surfaces: {
      mcp: { endpoint: model.mcp.endpoint, tools: model.tools.map((t) => t.name), server_card: d.serverCard },
      rest: { openapi: d.openapi, routes: model.routes.map((r) => `${r.method} ${r.path}`) },
      a2a: { agent_card: d.agentCard, endpoint: model.url(A2A_PATH) },
    },
    discover: { ard: d.ard, ai_catalog: d.aiCatalog, discovery: d.discovery, llms_full: d.llmsFull, mcp_json: d.mcpJson, mcp_registry: d.mcpRegistryServer },
    identity: { jwks: model.identity.jwks, signature_agent_card: model.identity.signatureAgentCard },
    policies: { ai_txt: d.aiTxt, robots_agent_txt: d.robotsAgent },
  };
}
