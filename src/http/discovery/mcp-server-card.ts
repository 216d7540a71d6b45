// The MCP Server Card (SEP-2127; the schema and the discovery text of
// modelcontextprotocol/experimental-ext-server-card at commit
// 8924e08682b4a936e6464b57845ec2ff17dc8776): identity, transport and protocol versions only - no
// tools, resources, prompts or capabilities, which a client lists once connected. One card per MCP
// server Rollcall runs: the whole server (every tool, at /api/mcp and its aliases) and each toolset
// endpoint. Each is served at the reserved `<streamable-http-url>/server-card` of every endpoint it
// describes, and at /.well-known/mcp/server-card[/<toolset>]. SPEC.md's own card (server-card.ts,
// snake_case) stays at /.well-known/mcp/server-card.json; the two describe the same server.
import { MCP_PATHS, MCP_SERVER_VERSION } from '../mcp.ts';
import { TOOLSET_NAMES, TOOLSET_PURPOSE, toolsetPath, type ToolsetName } from '../mcp-toolsets.ts';
import { A2A_PATH, DOCUMENT_PATHS, SERVER_CARD_SUFFIX } from './paths.ts';
import { MCP_PROTOCOL_VERSIONS, SERVER_DESCRIPTION } from './server-card.ts';
import { MEDIA_TYPES, SERVER_CARD_SCHEMA_URL } from '../../registry/ard-entry.ts';

/** The media type of a server card, which a client names in Accept (the card answers with it then). */
export const SERVER_CARD_MEDIA_TYPE = MEDIA_TYPES.mcpServerCard;
export { SERVER_CARD_SCHEMA_URL };

/** The whole server's endpoints: /api/a2a answers MCP too (a2a-answers-mcp.md), so it is a remote as well. */
export const WHOLE_SERVER_PATHS = [...MCP_PATHS, A2A_PATH] as const;

export interface McpServerCard {
  $schema: string;
  name: string;
  version: string;
  title: string;
  description: string;
  websiteUrl: string;
  remotes: { type: 'streamable-http'; url: string; supportedProtocolVersions: string[] }[];
}

/** What a card is made from (the discovery model's fields; named here so the model can list the card paths without an import circle). */
export interface CardInput {
  /** PUBLIC_BASE_URL's host name. */
  host: string;
  base: string;
  url(path: string): string;
}

/** The endpoints one card describes: the whole server's four, or the toolset's own. */
export const cardEndpoints = (toolset?: ToolsetName): readonly string[] => (toolset ? [toolsetPath(toolset)] : WHOLE_SERVER_PATHS);

/** Every place a card is served: `<endpoint>/server-card` of each endpoint it describes, then the well-known one. */
export function cardPaths(toolset?: ToolsetName): string[] {
  const wellKnown = toolset ? `${DOCUMENT_PATHS.mcpServerCard}/${toolset}` : DOCUMENT_PATHS.mcpServerCard;
  return [...cardEndpoints(toolset).map((p) => `${p}${SERVER_CARD_SUFFIX}`), wellKnown];
}

/** Every card's paths, the whole server's first. */
export const allCardPaths = (): string[] => [cardPaths(), ...TOOLSET_NAMES.map((t) => cardPaths(t))].flat();

/**
 * The schema's reverse-DNS namespace from a host name: `registry.rollcall.dev` -> `dev.rollcall.registry`.
 * An IP address or a one-label name (localhost) has no reverse form and stays as it is.
 */
export function reverseDns(host: string): string {
  if (/^[\d.]+$/.test(host) || host.includes(':') || !host.includes('.')) return host;
  return host.split('.').reverse().join('.');
}

/** A toolset's purpose as a sentence: the schema allows 100 characters, and every purpose fits. */
const toolsetDescription = (toolset: ToolsetName) => `${TOOLSET_PURPOSE[toolset].charAt(0).toUpperCase()}${TOOLSET_PURPOSE[toolset].slice(1)}.`;

/** The card of the whole server, or of one toolset's endpoint; title and version as its `serverInfo` says them. */
export function mcpServerCard(model: CardInput, toolset?: ToolsetName): McpServerCard {
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: `${reverseDns(model.host)}/${toolset ? `rollcall-${toolset}` : 'rollcall'}`,
    version: MCP_SERVER_VERSION,
    title: toolset ? `Rollcall registry: ${toolset} tools` : 'Rollcall registry',
    description: toolset ? toolsetDescription(toolset) : SERVER_DESCRIPTION,
    websiteUrl: model.base,
    // No tool needs a credential, so no remote declares a header.
    remotes: cardEndpoints(toolset).map((path) => ({ type: 'streamable-http' as const, url: model.url(path), supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] })),
  };
}
