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
/** The Web Bot Auth key directory: what a probe's `Signature-Agent` names. */
export const directoryUrl = (config: Pick<Config, 'publicBaseUrl'>): string => `${config.publicBaseUrl}${DIRECTORY_PATH}`;

/** The JWKS body: only the public members of each key (never `d`), whatever the caller passes. */
export const jwksDocument = (keys: readonly PublishedJwk[]): { keys: PublishedJwk[] } => ({
  keys: keys.map((k) => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid, alg: k.alg, use: k.use })),
});

/**
 * The Web Bot Auth key directory body (draft-ietf-webbotauth-httpsig-protocol, "Directory Format"):
 * a JWK Set whose `kid` is each key's RFC 7638 thumbprint. No JWK `alg`: the draft's example has
 * none, and the algorithm a request names is the `alg` signature parameter ("ed25519", from the
 * HTTP Signature Algorithms registry), not a JOSE name. The JWKS keeps `alg: "EdDSA"` for JWS users.
 */
export const directoryDocument = (keys: readonly PublishedJwk[]): { keys: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string; use: 'sig' }[] } => ({
  keys: keys.map((k) => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid, use: k.use })),
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
 * Rollcall as a signature agent: the Signature Agent Card of draft-meunier-webbotauth-registry
 * (thibmeu/draft-meunier-webbotauth-registry at 0bfbdc9): OAuth client metadata names (`client_id`
 * is the card's own URL, `client_name`, `client_uri`, `contacts`), the keys inline as `jwks` (the
 * draft forbids `jwks` beside `jwks_uri`, so the JWKS URL is under `rollcall`), and the bot's facts
 * under `web_bot_auth`. Rollcall's own links (the directory, the key ids, the tools that sign) sit
 * under `rollcall`, which a card reader ignores.
 */
export function signatureAgentCard(config: Config, keys: readonly PublishedJwk[], signingKid: string) {
  const base = config.publicBaseUrl;
  return {
    client_id: `${base}${SIGNATURE_AGENT_CARD_PATH}`,
    client_name: 'Rollcall',
    client_uri: `${base}/for-agents`,
    contacts: [`${base}/for-agents`],
    jwks: directoryDocument(keys),
    web_bot_auth: {
      'expected-user-agent': probeUserAgent(config),
      trigger: 'crawler',
      purpose: 'Rollcall is a public registry of A2A agents and MCP servers. Its prober fetches the agent cards and MCP endpoints that publishers list, to check that they answer and to score them; it reads only what a client would.',
      'targeted-content': 'A2A agent cards (/.well-known/agent-card.json, /.well-known/agent.json) and MCP server handshakes of listed URLs',
      'rate-control': 'at most a few connections per host at once; a failing listing is retried with a doubling backoff',
      'known-urls': ['/.well-known/agent-card.json', '/.well-known/agent.json', '/.well-known/mcp/server-card.json'],
    },
    rollcall: {
      url: base,
      'http-message-signatures-directory': directoryUrl(config),
      jwks_uri: jwksUrl(config),
      signing_kid: signingKid,
      key_ids: keys.map((k) => k.kid),
      mcp_endpoint: `${base}/api/mcp`,
      attestations: { sign: 'attest', verify: 'verify_attestation', bind_listing_key: 'bind_identity' },
    },
  };
}
