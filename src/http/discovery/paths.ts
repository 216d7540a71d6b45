// Where every discovery document lives, and the versions SPEC.md 9 gives them. Imports nothing of
// ours, so any door (the MCP door links to the server card and mcp.json) can use it without a cycle.

/** SPEC.md 9: discovery version (discovery.json, agentmap.json, skill.json). */
export const DISCOVERY_VERSION = '2.8.0';
/** SPEC.md 9: card version (agent card, server card). */
export const CARD_VERSION = '2.8.0';
/** SPEC.md 9: REST description version (/openapi.json `info.version`). */
export const OPENAPI_VERSION = '1.9.0';
/** SPEC.md 9: quickstart version. */
export const QUICKSTART_VERSION = '1.0.0';

/** The inbound A2A endpoint the agent card declares (served by src/http/a2a/door.ts). */
export const A2A_PATH = '/api/a2a';

/** Every document this folder serves, by name. */
export const DOCUMENT_PATHS = {
  aiCatalog: '/.well-known/ai-catalog.json',
  ard: '/.well-known/ard.json',
  agentCard: '/.well-known/agent-card.json',
  agentJson: '/.well-known/agent.json',
  mcpJson: '/.well-known/mcp.json',
  serverCard: '/.well-known/mcp/server-card.json',
  /** The MCP Server Card (SEP-2127) of the whole server; a toolset's is under it, `/<toolset>` (mcp-server-card.ts). */
  mcpServerCard: '/.well-known/mcp/server-card',
  mcpRegistryServer: '/api/mcp-registry/server.json',
  skill: '/skill.json',
  discovery: '/discovery.json',
  agentmap: '/agentmap.json',
  openapi: '/openapi.json',
  llms: '/llms.txt',
  llmsFull: '/llms-full.txt',
  aiTxt: '/ai.txt',
  robotsAgent: '/robots-agent.txt',
  /** The same policy where every crawler looks, with the `Agentmap:` ARD points crawlers to. */
  robots: '/robots.txt',
  quickstart: '/api/products/quickstart',
} as const;

/** The MCP Server Card's reserved place under each MCP endpoint: `<endpoint>/server-card`. */
export const SERVER_CARD_SUFFIX = '/server-card';

/** Signed-identity documents (served by src/identity/); the discovery documents only link to them. */
export const IDENTITY_PATHS = {
  jwks: '/.well-known/jwks.json',
  signatureAgentCard: '/.well-known/signature-agent-card.json',
  httpMessageSignaturesDirectory: '/.well-known/http-message-signatures-directory',
  mcpRegistryAuth: '/.well-known/mcp-registry-auth',
} as const;
