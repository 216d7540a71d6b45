// The MCP server card (SPEC.md 4.2 `card`): served at /.well-known/mcp/server-card.json and
// embedded by the MCP door in its GET info object (the reserved `<endpoint>/server-card` serves the
// MCP Server Card of SEP-2127, mcp-server-card.ts). Imports no door
// (the toolsets' table is not one), so the MCP door can import it without an import circle.
import type { Config } from '../../config.ts';
import { A2A_PATH, CARD_VERSION } from './paths.ts';
import { toolsetLinks } from '../mcp-toolsets.ts';

/** SPEC.md 9: card `schema_version`. */
export const SERVER_CARD_SCHEMA_VERSION = '2026-07-28';

/** DESIGN.md "Protocol versions": newest first, in this order in `protocol_versions`. */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** SPEC.md 4.2: the card's three remotes. */
export const SERVER_CARD_REMOTE_PATHS = ['/api/mcp', '/api/protocol', A2A_PATH] as const;

export const SERVER_DESCRIPTION = 'A public registry of A2A agents and MCP servers, probed for real before they are listed.';

export interface ServerCard {
  schema_version: string;
  name: string;
  title: string;
  description: string;
  website_url: string;
  documentation_url: string;
  version: string;
  remotes: { type: 'streamable-http'; url: string; headers: { name: string; description?: string; isRequired?: boolean }[] }[];
  capabilities: { tools: boolean; resources: boolean; prompts: boolean; server_discover: boolean };
  oauth: { required: boolean; readiness: 'none' };
  protocol_versions: string[];
  registry_role: 'sub-registry';
  tools: string[];
  /** The endpoint to connect to first (the registry toolset), beside the SPEC fields. */
  first_connection: string;
  /** Every toolset's endpoint and what it is for (mcp-toolsets.ts). */
  toolsets: Record<string, { endpoint: string; purpose: string }>;
}

/** The server card for this deployment; `toolNames` as tools/list names them (aliases included). */
export function serverCard(config: Pick<Config, 'publicBaseUrl'>, toolNames: readonly string[]): ServerCard {
  const base = config.publicBaseUrl;
  return {
    schema_version: SERVER_CARD_SCHEMA_VERSION,
    name: 'rollcall',
    title: 'Rollcall registry',
    description: SERVER_DESCRIPTION,
    website_url: base,
    documentation_url: `${base}/llms.txt`,
    version: CARD_VERSION,
    remotes: SERVER_CARD_REMOTE_PATHS.map((path) => ({ type: 'streamable-http' as const, url: `${base}${path}`, headers: [] })),
    capabilities: { tools: true, resources: false, prompts: false, server_discover: true },
    oauth: { required: false, readiness: 'none' },
    protocol_versions: [...MCP_PROTOCOL_VERSIONS],
    registry_role: 'sub-registry',
    tools: [...toolNames],
    ...toolsetLinks(base),
  };
}
