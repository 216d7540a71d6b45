// The discovery door (SPEC.md 4.1 "Also published as addresses"): every machine-readable
// document about this service, generated from the config, the operation catalog and the REST route
// table, serialized once when the app is ready (they change only with a deployment) and served
// from memory: the right content type, CORS open to every origin for GET (Allow-Origin, -Methods
// and -Headers, as the MCP server-card draft lists them), an ETag that is a hash of the bytes (304
// on a matching If-None-Match) and `Cache-Control: public, max-age=300`. A document with a
// variant (the agent card's v1.0 form, chosen by A2A-Version) says so in `Vary`.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyOperation, BaseServices } from '../../platform/operation.ts';
import { AppError } from '../../platform/errors.ts';
import { matchesEtag } from '../response-cache.ts';
import type { RestRoute } from '../rest.ts';
import { agentCardDocument, compatAgentCardDocument, type AgentCard } from './agent-card.ts';
import { resolveVersion } from '../a2a/info.ts';
import { TOOLSET_NAMES, type ToolsetName } from '../mcp-toolsets.ts';
import { AI_CATALOG_MEDIA_TYPE, aiCatalogDocument } from './ai-catalog.ts';
import { ardManifestDocument } from './ard-manifest.ts';
import { agentMapDocument, discoveryDocument, mcpJsonDocument, serverJsonDocument, type IdentityExtras } from './maps.ts';
import { buildModel, type DiscoveryModel } from './model.ts';
import { openApiDocument } from './openapi.ts';
import { DOCUMENT_PATHS } from './paths.ts';
import { serverCard } from './server-card.ts';
import { allCardPaths, cardPaths, mcpServerCard, SERVER_CARD_MEDIA_TYPE } from './mcp-server-card.ts';
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
 * - `signAgentCard`: signs the agent card (given as served, without `signatures`) and returns its
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

type Build = (model: DiscoveryModel, identity: Resolved) => Promise<unknown> | unknown;

/** A second form of a document, served when a request header asks for it. */
interface Variant {
  /** The request header that chooses it (lower case), named in `Vary`. */
  header: string;
  chosen: (value: string | string[] | undefined) => boolean;
  build: Build;
  /** Its own Content-Type (default: the document's). */
  contentType?: string;
}

interface Spec {
  paths: string[];
  summary: string;
  contentType: string;
  build: Build;
  variant?: Variant;
}

interface Bytes {
  body: Buffer;
  etag: string;
}

export interface BuiltDocument extends Bytes {
  paths: string[];
  contentType: string;
  variant?: Bytes & Pick<Variant, 'header' | 'chosen'> & { contentType: string };
}

/** A v1 client's card request: A2A-Version 1.0 (or 1, 1.0.x); no header is the A2A default, 0.3. */
function asksForV1(value: string | string[] | undefined): boolean {
  if (value === undefined) return false;
  const version = resolveVersion(value, '');
  return 'version' in version && version.version === '1.0';
}

/** An Accept that names the server card's media type with a non-zero weight (a wildcard alone gets JSON). */
export function acceptsCardType(value: string | string[] | undefined): boolean {
  const ranges = (Array.isArray(value) ? value.join(',') : (value ?? '')).split(',');
  return ranges.some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return type === SERVER_CARD_MEDIA_TYPE && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** The card with its signatures, when the identity module signs cards (A2A 8.4.1 covers the v1 members of either form). */
async function signed<T extends AgentCard>(card: T, x: Resolved): Promise<T> {
  return x.signAgentCard ? { ...card, signatures: await x.signAgentCard(card) } : card;
}

function specs(): Spec[] {
  const P = DOCUMENT_PATHS;
  const json = (paths: string[], summary: string, build: Spec['build']): Spec => ({ paths, summary, contentType: JSON_TYPE, build });
  const text = (path: string, summary: string, build: (m: DiscoveryModel) => string): Spec => ({ paths: [path], summary, contentType: TEXT_TYPE, build });
  // A server card in JSON, and in its own media type for a client whose Accept names it.
  const mcpCard = (summary: string, build: Build, toolset?: ToolsetName): Spec => ({
    ...json(cardPaths(toolset), summary, build),
    variant: { header: 'accept', chosen: acceptsCardType, build, contentType: SERVER_CARD_MEDIA_TYPE },
  });
  const all: Spec[] = [
    { ...json([P.aiCatalog], 'AI Catalog 1.0 of this service', aiCatalogDocument), contentType: `${AI_CATALOG_MEDIA_TYPE}; charset=utf-8` },
    json([P.ard], 'ARD capability manifest (ard-spec specVersion 1.0) of this service, with its registry API', ardManifestDocument),
    {
      ...json([P.agentCard, P.agentJson], 'A2A agent card: v0.3 compatible without A2A-Version, v1.0 only with A2A-Version: 1.0', (m, x) => signed(compatAgentCardDocument(m), x)),
      variant: { header: 'a2a-version', chosen: asksForV1, build: (m, x) => signed(agentCardDocument(m), x) },
    },
    json([P.mcpJson], 'Pointer to the MCP endpoint', mcpJsonDocument),
    json([P.serverCard], 'MCP server card (SPEC.md 4.2 card)', (m) => serverCard(m.config, m.tools.map((t) => t.name))),
    mcpCard('MCP Server Card (SEP-2127) of the whole server', (m) => mcpServerCard(m)),
    ...TOOLSET_NAMES.map((t) => mcpCard(`MCP Server Card (SEP-2127) of the ${t} toolset`, (m) => mcpServerCard(m, t), t)),
    json([P.mcpRegistryServer], 'This server in the official MCP registry server.json format', serverJsonDocument),
    json([P.skill], 'One-shot skill: list yourself, go Live, claim the founding deal', skillDocument),
    json([P.quickstart], 'Agent quickstart (SPEC.md 4.3)', quickstartDocument),
    json([P.discovery], 'Full machine discovery map: surfaces, tools, routes, documents', (m, x) => discoveryDocument(m, x)),
    json([P.agentmap], 'Compact map of the surfaces, grouped for agents', agentMapDocument),
    text(P.llms, 'llms.txt: the service for language models', llmsTxt),
    text(P.llmsFull, 'llms-full.txt: llms.txt plus every tool and route in detail', llmsFullTxt),
    text(P.aiTxt, 'ai.txt: how AI agents may use this service', aiTxt),
    { ...text(P.robotsAgent, 'robots-agent.txt (also /robots.txt): what agents and crawlers may fetch, and how fast', robotsAgentTxt), paths: [P.robotsAgent, P.robots] },
  ];
  const described = all.flatMap((s) => s.paths.map((path) => ({ path, summary: s.summary, contentType: s.contentType, ...(s.variant?.contentType ? { acceptedType: s.variant.contentType } : {}) })));
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

function serialize(contentType: string, value: unknown): Bytes {
  const body = encode(contentType, value);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
}

/** A variant's bytes and Content-Type; one with its own Content-Type gets its own ETag even when the bytes are the same. */
function serializeVariant(spec: Spec, variant: Variant, value: unknown): Bytes & { contentType: string } {
  const contentType = variant.contentType ?? spec.contentType;
  const bytes = serialize(spec.contentType, value);
  const etag = contentType === spec.contentType ? bytes.etag : `"${createHash('sha256').update(contentType).update(bytes.body).digest('base64url').slice(0, 32)}"`;
  return { body: bytes.body, etag, contentType };
}

/** Every document, serialized; pure apart from the extras' signing, so tests build them from any catalog. */
export async function buildDiscoveryDocuments(input: BuildInput): Promise<BuiltDocument[]> {
  const model = buildModel(input);
  const extras = input.extras ?? {};
  const resolved: Resolved = { mcpDnsTxt: (await extras.mcpDnsTxt?.()) ?? undefined, signAgentCard: extras.signAgentCard };
  return Promise.all(
    specs().map(async (s) => {
      const main = serialize(s.contentType, await s.build(model, resolved));
      const variant = s.variant && { header: s.variant.header, chosen: s.variant.chosen, ...serializeVariant(s, s.variant, await s.variant.build(model, resolved)) };
      return { paths: s.paths, contentType: s.contentType, ...main, ...(variant ? { variant } : {}) };
    }),
  );
}

/** Every path this door serves (every MCP Server Card's places included). */
export function discoveryPaths(): string[] {
  return [...new Set([...Object.values(DOCUMENT_PATHS), ...allCardPaths()])];
}

/** What a GET answers: CORS as the MCP server-card draft lists it (If-None-Match too, for revalidation). */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'Content-Type, If-None-Match, A2A-Version, Accept',
  'access-control-expose-headers': 'ETag',
};

interface Form {
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
  notModified: Record<string, string>;
}

interface Slot {
  main?: Form;
  variant?: Form & { header: string; chosen: Variant['chosen'] };
}

function formOf(bytes: Bytes, contentType: string, vary: string | undefined): Form {
  const notModified = { etag: bytes.etag, 'cache-control': CACHE_CONTROL, ...CORS, ...(vary ? { vary } : {}) };
  return { body: bytes.body, etag: bytes.etag, notModified, headers: { ...notModified, 'content-type': contentType } };
}

export function registerDiscovery(app: FastifyInstance, services: BaseServices, catalog: readonly AnyOperation[], extras: DiscoveryExtras = {}) {
  const slots = new Map<string, Slot>();
  for (const s of specs()) for (const path of s.paths) slots.set(path, {});

  // Built once, before the first request (the extras may need the database, which is up by now).
  app.addHook('onReady', async () => {
    for (const doc of await buildDiscoveryDocuments({ config: services.config, catalog, extras })) {
      const vary = doc.variant?.header;
      const main = formOf(doc, doc.contentType, vary);
      const variant = doc.variant && { ...formOf(doc.variant, doc.variant.contentType, vary), header: doc.variant.header, chosen: doc.variant.chosen };
      for (const path of doc.paths) Object.assign(slots.get(path)!, { main, variant });
    }
  });

  for (const [path, slot] of slots) {
    app.get(path, (request: FastifyRequest, reply: FastifyReply) => {
      const { main, variant } = slot;
      if (!main) throw new AppError(503, 'not_ready', 'the discovery documents are being built; retry in a moment');
      const form = variant?.chosen(request.headers[variant.header]) ? variant : main;
      if (matchesEtag(request.headers['if-none-match'], form.etag)) return reply.code(304).headers(form.notModified).send();
      return reply.headers(form.headers).send(form.body);
    });
    // CORS preflight, for browsers that revalidate with If-None-Match or ask for a card version.
    app.options(path, (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(204)
        .headers({ ...CORS, 'access-control-max-age': '86400' })
        .send(),
    );
  }
}
