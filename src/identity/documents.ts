// The signed-identity documents (SPEC.md 5.4), built from the published keys and the configuration,
// never kept by hand: the JWKS, the Web Bot Auth signature agent card, the MCP registry's HTTP
// namespace proof and the `_mcp` DNS TXT record.
import type { Config } from '../config.ts';
import { probeUserAgent } from '../probe/factory.ts';
import { rawPublicKey, type Ed25519PublicJwk, type PublishedJwk } from './keys.ts';

export const JWKS_PATH = '/.well-known/jwks.json';
export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
export const SIGNATURE_AGENT_CARD_PATH = '/.well-known/signature-agent-card.json';
export const MCP_REGISTRY_AUTH_PATH = '/.well-known/mcp-registry-auth';

export const jwksUrl = (config: Pick<Config, 'publicBaseUrl'>): string => `${config.publicBaseUrl}${JWKS_PATH}`;

/** The JWKS body: only the public members of each key (never `d`), whatever the caller passes. */
export const jwksDocument = (keys: readonly PublishedJwk[]): { keys: PublishedJwk[] } => ({
  keys: keys.map((k) => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid, alg: k.alg, use: k.use })),
});

/** The MCP registry's HTTP namespace verification record (`/.well-known/mcp-registry-auth`). */
export const mcpRegistryAuth = (publicKey: Ed25519PublicJwk): string => `v=MCPv1; k=ed25519; p=${rawPublicKey(publicKey).toString('base64')}`;

/**
 * The `_mcp` DNS TXT record (SPEC.md 5.4): where our MCP endpoint is, its transport, our Ed25519
 * public key (raw 32 bytes, base64), scope, capability and priority. Publish it at
 * `_mcp.<your domain>`; after a key rotation, publish the new key's record.
 */
export function mcpDnsTxt(config: Pick<Config, 'publicBaseUrl'>, publicKey: Ed25519PublicJwk): string {
  return [
    'v=MCPv1',
    `url=${config.publicBaseUrl}/api/mcp`,
    'proto=streamable-http',
    `pk=ed25519:${rawPublicKey(publicKey).toString('base64')}`,
    'scope=registry',
    'cap=tools',
    'priority=10',
  ].join('; ');
}

/**
 * Rollcall as a signature agent (draft-meunier-webbotauth-registry parameter names, plus our own
 * links): who we are, what the prober fetches and why, its User-Agent, where the keys are.
 */
export function signatureAgentCard(config: Config, keys: readonly PublishedJwk[], signingKid: string) {
  const base = config.publicBaseUrl;
  return {
    name: 'Rollcall',
    url: base,
    about: `${base}/for-agents`,
    contact: `${base}/for-agents`,
    purpose: 'Rollcall is a public registry of A2A agents and MCP servers. Its prober fetches the agent cards and MCP endpoints that publishers list, to check that they answer and to score them; it reads only what a client would.',
    trigger: 'crawler',
    'targeted-content': 'A2A agent cards (/.well-known/agent-card.json, /.well-known/agent.json) and MCP server handshakes of listed URLs',
    'expected-user-agent': probeUserAgent(config),
    'rate-control': 'at most a few connections per host at once; a failing listing is retried with a doubling backoff',
    'known-urls': ['/.well-known/agent-card.json', '/.well-known/agent.json', '/.well-known/mcp/server-card.json'],
    'http-message-signatures-directory': `${base}/.well-known/http-message-signatures-directory`,
    jwks_uri: jwksUrl(config),
    signing_kid: signingKid,
    key_ids: keys.map((k) => k.kid),
    keys: jwksDocument(keys),
    mcp_endpoint: `${base}/api/mcp`,
    attestations: { sign: 'attest', verify: 'verify_attestation', bind_listing_key: 'bind_identity' },
  };
}
