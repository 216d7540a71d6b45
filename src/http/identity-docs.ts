// The signed-identity documents (SPEC.md 4.1 addresses, 5.4): /.well-known/jwks.json, the Web Bot
// Auth key directory (its response signed per RFC 9421), the signature agent card and the MCP
// registry's HTTP auth record. Each is generated from the published keys on every request (the
// keys are cached a few seconds by the runtime), sent with CORS open, an ETag of the body (304 on
// If-None-Match) and Cache-Control public, max-age=300.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BaseServices } from '../platform/operation.ts';
import type { IdentityRuntime } from '../identity/runtime.ts';
import {
  DIRECTORY_PATH,
  JWKS_PATH,
  MCP_REGISTRY_AUTH_PATH,
  SIGNATURE_AGENT_CARD_PATH,
  directoryDocument,
  jwksDocument,
  mcpRegistryAuth,
  signatureAgentCard,
} from '../identity/documents.ts';
import { CARD_TAG, DIRECTORY_TAG } from '../identity/http-signatures.ts';
import { hostAllowed } from './origin.ts';
import { matchesEtag } from './response-cache.ts';

export const DOCUMENT_MAX_AGE_S = 300;
/** A response signature stays valid well past any cached copy of the response (max-age). */
export const RESPONSE_SIGNATURE_TTL_S = 3600;
export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

/**
 * The `@authority` a response signature covers: the authority the client asked for when it is
 * this service's public host (or, for a loopback public URL, any loopback name), else the public
 * one, so a forged Host header never gets our keys' signature over somebody else's name.
 */
function authorityOf(request: FastifyRequest, base: string): string {
  const configured = new URL(base).host;
  if (!hostAllowed(request.host, base)) return configured;
  try {
    return new URL(`${request.protocol}://${request.host}`).host;
  } catch {
    return configured;
  }
}

function send(request: FastifyRequest, reply: FastifyReply, type: string, text: string, extra: Record<string, string> = {}) {
  // A Buffer, so the media type goes out exactly as given (Fastify adds a charset to strings).
  const body = Buffer.from(text);
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  reply
    .header('content-type', type)
    .header('access-control-allow-origin', '*')
    .header('cache-control', `public, max-age=${DOCUMENT_MAX_AGE_S}`)
    .header('etag', etag)
    .headers(extra);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(body);
}

const EXPOSED = 'ETag, Content-Digest, Signature, Signature-Input';

export function registerIdentityDocs(app: FastifyInstance, services: BaseServices & { identity: IdentityRuntime }) {
  const { identity, config } = services;
  const base = config.publicBaseUrl;

  app.get(JWKS_PATH, async (request, reply) => send(request, reply, 'application/json', JSON.stringify(jwksDocument((await identity.jwks()).keys))));

  app.get(DIRECTORY_PATH, async (request, reply) => {
    const body = JSON.stringify(directoryDocument((await identity.jwks()).keys));
    const signed = await identity.signResponse(authorityOf(request, base), body, DIRECTORY_TAG, RESPONSE_SIGNATURE_TTL_S);
    return send(request, reply, DIRECTORY_MEDIA_TYPE, body, { ...signed, 'access-control-expose-headers': EXPOSED });
  });

  app.get(SIGNATURE_AGENT_CARD_PATH, async (request, reply) => {
    const { keys } = await identity.jwks();
    const body = JSON.stringify(signatureAgentCard(config, keys, (await identity.currentPublicJwk()).kid));
    const signed = await identity.signResponse(authorityOf(request, base), body, CARD_TAG, RESPONSE_SIGNATURE_TTL_S);
    return send(request, reply, 'application/json', body, { ...signed, 'access-control-expose-headers': EXPOSED });
  });

  app.get(MCP_REGISTRY_AUTH_PATH, async (request, reply) =>
    send(request, reply, 'text/plain; charset=utf-8', mcpRegistryAuth(await identity.currentPublicJwk())),
  );
}
