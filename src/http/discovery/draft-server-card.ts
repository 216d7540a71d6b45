// The MCP server card in the shape of the server-card draft (SEP-2127, "MCP Server Cards - HTTP
// Server Discovery via .well-known", modelcontextprotocol/modelcontextprotocol
// seps/2127-mcp-server-cards.md at commit 008d27257c7f1ab963f093cb58ae0a5727810ade): `$schema`,
// camelCase fields, a reverse-DNS name, only MCP remotes, the tools as tools/list gives them.
// Served at /.well-known/mcp/server-card (every tool, at /api/mcp) and, in the draft's
// one-card-per-server pattern, at /.well-known/mcp/server-card/<toolset> (one toolset, at its own
// endpoint). SPEC.md's own card (server-card.ts, snake_case) stays where SPEC puts it; the two
// describe the same server.
import { buildToolList, type ToolEntry } from '../mcp-tools.ts';
import { CAPABILITIES, MCP_PATHS } from '../mcp.ts';
import { findToolsOperation, TOOLSET_PURPOSE, toolsetOperations, toolsetPath, type ToolsetName } from '../mcp-toolsets.ts';
import type { DiscoveryModel } from './model.ts';
import { DOCUMENT_PATHS } from './paths.ts';
import { MCP_PROTOCOL_VERSIONS, SERVER_DESCRIPTION } from './server-card.ts';

/** Where the draft puts the card (a toolset's card is under it, `/<toolset>`). */
export const DRAFT_SERVER_CARD_PATH = DOCUMENT_PATHS.draftServerCard;

/** The draft's `$schema` for server cards. */
export const DRAFT_SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

export interface DraftServerCard {
  $schema: string;
  name: string;
  version: string;
  title: string;
  description: string;
  websiteUrl: string;
  remotes: { type: 'streamable-http'; url: string; supportedProtocolVersions: string[]; authentication: { required: boolean; schemes: string[] } }[];
  capabilities: typeof CAPABILITIES;
  tools: ToolEntry[];
  resources: [];
  prompts: [];
}

/**
 * The draft's reverse-DNS namespace from a host name: `registry.rollcall.dev` -> `dev.rollcall.registry`.
 * An IP address or a one-label name (localhost) has no reverse form and stays as it is.
 */
export function reverseDns(host: string): string {
  if (/^[\d.]+$/.test(host) || host.includes(':') || !host.includes('.')) return host;
  return host.split('.').reverse().join('.');
}

/** The card of the whole server, or of one toolset's endpoint. */
export function draftServerCard(model: DiscoveryModel, toolset?: ToolsetName): DraftServerCard {
  const operations = [...(toolset ? toolsetOperations(model.catalog, toolset) : model.catalog), findToolsOperation(model.catalog, model.base)];
  // Only MCP endpoints: /api/a2a answers MCP too, but it is the A2A endpoint.
  const paths = toolset ? [toolsetPath(toolset)] : MCP_PATHS;
  return {
    $schema: DRAFT_SERVER_CARD_SCHEMA,
    name: `${reverseDns(model.host)}/${toolset ? `rollcall-${toolset}` : 'rollcall'}`,
    version: model.mcp.serverVersion,
    title: toolset ? `Rollcall registry: ${toolset} tools` : 'Rollcall registry',
    description: toolset ? `${SERVER_DESCRIPTION} This card: the ${toolset} toolset (${TOOLSET_PURPOSE[toolset]}).` : SERVER_DESCRIPTION,
    websiteUrl: model.base,
    // No tool needs a credential to be called; an owner's tools take its owner token as a bearer token.
    remotes: paths.map((path) => ({ type: 'streamable-http' as const, url: model.url(path), supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS], authentication: { required: false, schemes: ['bearer'] } })),
    capabilities: CAPABILITIES,
    tools: buildToolList(operations).list,
    resources: [],
    prompts: [],
  };
}
