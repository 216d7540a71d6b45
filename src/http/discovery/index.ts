// The discovery door (SPEC.md 4.1 "Also published as addresses"): every machine-readable
// document about this service, generated from the config, the operation catalog and the REST route
// table, serialized once when the app is ready (they change only with a deployment) and served
// from memory: the right content type, `Access-Control-Allow-Origin: *`, an ETag that is a hash
// of the bytes (304 on a matching If-None-Match) and `Cache-Control: public, max-age=300`.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyOperation, BaseServices } from '../../platform/operation.ts';
import { AppError } from '../../platform/errors.ts';
import { matchesEtag } from '../response-cache.ts';
import type { RestRoute } from '../rest.ts';
import { agentCardDocument, type AgentCard } from './agent-card.ts';
import { aiCatalogDocument } from './ai-catalog.ts';
import { agentMapDocument, discoveryDocument, mcpJsonDocument, serverJsonDocument, type IdentityExtras } from './maps.ts';
import { buildModel, type DiscoveryModel } from './model.ts';
import { openApiDocument } from './openapi.ts';
import { DOCUMENT_PATHS, SERVER_CARD_SUFFIX } from './paths.ts';
import { serverCard } from './server-card.ts';
import { quickstartDocument, skillDocument } from './steps.ts';
import { aiTxt, llmsFullTxt, llmsTxt, robotsAgentTxt } from './text.ts';

export { serverCard } from './server-card.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Plain text for every text document, llms.txt included: it displays inline everywhere and is what the convention's files are served as. */
const TEXT_TYPE = 'text/plain; charset=utf-8';
export const CACHE_CONTROL = 'public, max-age=300';

/**
 * What the identity module supplies at integration (every field optional; both are called once,
 * when the app is ready, so they may read the signing keys from the database):
 * - `signAgentCard`: signs the agent card as served (given without `signatures`) and returns its
 *   `signatures` array (A2A v1 AgentCardSignature objects);
 * - `mcpDnsTxt`: the `_mcp` DNS TXT record's text, shown in /discovery.json `identity.dns_txt.value`.
 */
export interface DiscoveryExtras {
  signAgentCard?: (card: AgentCard) => Promise<unknown[]> | unknown[];
  mcpDnsTxt?: () => Promise<string | undefined> | string | undefined;
}

/** The extras, resolved once per build. */
interface Resolved extends IdentityExtras {
  signAgentCard?: DiscoveryExtras['signAgentCard'];
}

interface Spec {
  paths: string[];
  summary: string;
  contentType: string;
  build: (model: DiscoveryModel, identity: Resolved) => Promise<unknown> | unknown;
}

export interface BuiltDocument {
  paths: string[];
  contentType: string;
  body: Buffer;
  etag: string;
}

function specs(model: DiscoveryModel): Spec[] {
  const P = DOCUMENT_PATHS;
  const json = (paths: string[], summary: string, build: Spec['build']): Spec => ({ paths, summary, contentType: JSON_TYPE, build });
  const text = (path: string, summary: string, build: (m: DiscoveryModel) => string): Spec => ({ paths: [path], summary, contentType: TEXT_TYPE, build });
  const all: Spec[] = [
    json([P.aiCatalog, P.ard], 'ARD (Agentic Resource Discovery v0.91) manifest of this service', aiCatalogDocument),
    json([P.agentCard, P.agentJson], 'A2A agent card (v1.0 shape, v0.3 compatible)', async (m, x) => {
      const card = agentCardDocument(m);
      return x.signAgentCard ? { ...card, signatures: await x.signAgentCard(card) } : card;
    }),
    json([P.mcpJson], 'Pointer to the MCP endpoint', mcpJsonDocument),
    json([P.serverCard, ...model.mcp.paths.map((p) => `${p}${SERVER_CARD_SUFFIX}`)], 'MCP server card (SPEC.md 4.2 card)', (m) =>
      serverCard(m.config, m.tools.map((t) => t.name)),
    ),
    json([P.mcpRegistryServer], 'This server in the official MCP registry server.json format', serverJsonDocument),
    json([P.skill], 'One-shot skill: list yourself, go Live, claim the founding deal', skillDocument),
    json([P.quickstart], 'Agent quickstart (SPEC.md 4.3)', quickstartDocument),
    json([P.discovery], 'Full machine discovery map: surfaces, tools, routes, documents', (m, x) => discoveryDocument(m, x)),
    json([P.agentmap], 'Compact map of the surfaces, grouped for agents', agentMapDocument),
    text(P.llms, 'llms.txt: the service for language models', llmsTxt),
    text(P.llmsFull, 'llms-full.txt: llms.txt plus every tool and route in detail', llmsFullTxt),
    text(P.aiTxt, 'ai.txt: how AI agents may use this service', aiTxt),
    text(P.robotsAgent, 'robots-agent.txt: what agents and crawlers may fetch, and how fast', robotsAgentTxt),
  ];
  const described = all.flatMap((s) => s.paths.map((path) => ({ path, summary: s.summary, contentType: s.contentType })));
  const openapi = json([P.openapi], 'OpenAPI 3.1 description of the REST API', (m) =>
    openApiDocument(m.base, [...described, { path: P.openapi, summary: 'OpenAPI 3.1 description of the REST API', contentType: JSON_TYPE }], m.routeTable),
  );
  return [...all, openapi];
}

function encode(contentType: string, value: unknown): Buffer {
  return Buffer.from(contentType === TEXT_TYPE ? String(value) : JSON.stringify(value));
}

export interface BuildInput {
  config: BaseServices['config'];
  catalog: readonly AnyOperation[];
  routes?: readonly RestRoute[];
  extras?: DiscoveryExtras;
}

/** Every document, serialized; pure apart from the extras' signing, so tests build them from any catalog. */
export async function buildDiscoveryDocuments(input: BuildInput): Promise<BuiltDocument[]> {
  const model = buildModel(input);
  const extras = input.extras ?? {};
  const resolved: Resolved = { mcpDnsTxt: (await extras.mcpDnsTxt?.()) ?? undefined, signAgentCard: extras.signAgentCard };
  return Promise.all(
    specs(model).map(async (s) => {
      const body = encode(s.contentType, await s.build(model, resolved));
      return { paths: s.paths, contentType: s.contentType, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
    }),
  );
}

/** Every path this door serves (the server card's MCP aliases included). */
export function discoveryPaths(mcpPaths: readonly string[]): string[] {
  return [...Object.values(DOCUMENT_PATHS), ...mcpPaths.map((p) => `${p}${SERVER_CARD_SUFFIX}`)];
}

interface Slot {
  doc?: BuiltDocument;
  headers?: Record<string, string>;
  notModified?: Record<string, string>;
}

export function registerDiscovery(app: FastifyInstance, services: BaseServices, catalog: readonly AnyOperation[], extras: DiscoveryExtras = {}) {
  const slots = new Map<string, Slot>();
  for (const s of specs(buildModel({ config: services.config, catalog }))) for (const path of s.paths) slots.set(path, {});

  // Built once, before the first request (the extras may need the database, which is up by now).
  app.addHook('onReady', async () => {
    for (const doc of await buildDiscoveryDocuments({ config: services.config, catalog, extras })) {
      const notModified = { etag: doc.etag, 'cache-control': CACHE_CONTROL, 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag' };
      for (const path of doc.paths) Object.assign(slots.get(path)!, { doc, notModified, headers: { ...notModified, 'content-type': doc.contentType } });
    }
  });

  for (const [path, slot] of slots) {
    app.get(path, (request: FastifyRequest, reply: FastifyReply) => {
      const { doc, headers, notModified } = slot;
      if (!doc || !headers || !notModified) throw new AppError(503, 'not_ready', 'the discovery documents are being built; retry in a moment');
      if (matchesEtag(request.headers['if-none-match'], doc.etag)) return reply.code(304).headers(notModified).send();
      return reply.headers(headers).send(doc.body);
    });
    // CORS preflight, for browsers that revalidate with If-None-Match themselves.
    app.options(path, (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(204)
        .headers({
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, HEAD, OPTIONS',
          'access-control-allow-headers': 'If-None-Match',
          'access-control-max-age': '86400',
        })
        .send(),
    );
  }
}
