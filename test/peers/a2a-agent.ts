// A live A2A agent for tests, built with @a2a-js/sdk on plain node:http (loopback only). It
// serves its card at /.well-known/agent-card.json in the v1.0 shape, or in the v0.3 shape with the
// SDK's v0.3 JSON-RPC handler, and answers text messages. With `signing`, its card carries an A2A
// signature made by the SDK's `generateAgentCardSignature` with a key it publishes at
// /.well-known/jwks.json (the signature's `jku`).
import http from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { generateAgentCardSignature, Role, type AgentCard, type Message } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  defaultServerCallContextBuilder,
  validateVersion,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { serveClaimFile, type ClaimSpots } from './claim-spots.ts';

class ReplyExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    const reply: Message = {
      messageId: randomUUID(),
      contextId: ctx.contextId,
      taskId: '',
      role: Role.ROLE_AGENT,
      parts: [{ content: { $case: 'text', value: `translated: ${text}` }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(AgentEvent.message(reply));
  }
  async cancelTask(): Promise<void> {}
}

const SKILL = {
  id: 'translate-text',
  name: 'Translate text',
  description: 'Translates short English text into French, German or Spanish.',
  tags: ['translation', 'language'],
  examples: ['translate "good morning" to French'],
};

export interface AgentPeer {
  baseUrl: string;
  cardUrl: string;
  /** Requests seen per path, to count probes. */
  hits: Map<string, number>;
  /** false: every request answers 503, as a server that is down behind its proxy. */
  setHealthy(healthy: boolean): void;
  close(): Promise<void>;
}

export interface AgentOptions {
  shape?: '1.0' | '0.3';
  /** The loopback address to listen on (127.0.0.x: a host of its own). */
  host?: string;
  /** Where it shows a proof of control (claim-spots.ts). */
  claims?: ClaimSpots;
  /**
   * Sign the card: `valid`, a signature that holds; `tampered`, the card changed after signing;
   * `foreign_jku`, a valid signature whose jku is on another origin (`localhost` for its 127.0.0.x).
   */
  signing?: 'valid' | 'tampered' | 'foreign_jku';
  /** The card's name (several peers in one registry need names of their own). */
  name?: string;
}

export async function startA2aAgent(options: AgentOptions = {}): Promise<AgentPeer> {
  const shape = options.shape ?? '1.0';
  const host = options.host ?? '127.0.0.1';
  const claims = options.claims;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;
  const endpoint = `${baseUrl}/a2a/jsonrpc`;
  const card: AgentCard = {
    name: options.name ?? 'Polyglot Translator',
    description: 'A small agent that translates short texts between European languages.',
    version: '1.2.0',
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Rollcall tests', url: 'https://example.org' },
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ ...SKILL, inputModes: ['text/plain'], outputModes: ['text/plain'], securityRequirements: [] }],
    signatures: [],
  };
  // The v0.3 shape of the same card: one url, preferredTransport, protocolVersion on the card.
  const cardV03 = {
    protocolVersion: '0.3.0',
    name: card.name,
    description: card.description,
    version: card.version,
    url: endpoint,
    preferredTransport: 'JSONRPC',
    provider: card.provider,
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [SKILL],
  };
  // A card carrying a proof of control: an extension entry whose params hold it.
  const extensions = () => (claims?.card !== undefined ? [{ uri: 'https://rollcall.example/claim', description: 'Rollcall proof of control', required: false, params: { rollcall_claim: claims.card } }] : []);
  const cardAt = (path: string) => {
    const prefix = path.slice(0, -'/agent-card.json'.length).replace(/^\/\.well-known$/, '');
    const url = `${baseUrl}${prefix}/a2a/jsonrpc`;
    if (shape === '0.3') return { ...cardV03, url, capabilities: { ...cardV03.capabilities, extensions: extensions() } };
    return { ...card, capabilities: { ...card.capabilities, extensions: extensions() }, supportedInterfaces: card.supportedInterfaces.map((i) => ({ ...i, url })) };
  };
  const key = generateKeyPairSync('ed25519');
  const jwk = { ...key.publicKey.export({ format: 'jwk' }), kid: 'peer-key-1', alg: 'EdDSA', use: 'sig' };
  const jkuBase = options.signing === 'foreign_jku' ? baseUrl.replace(host, 'localhost') : baseUrl;
  const sign = generateAgentCardSignature(key.privateKey, { alg: 'EdDSA', typ: 'JOSE', kid: jwk.kid, jku: `${jkuBase}/.well-known/jwks.json` });
  const served = async (path: string): Promise<unknown> => {
    const plain = cardAt(path);
    if (!options.signing) return plain;
    const signed = await sign(plain as AgentCard);
    return options.signing === 'tampered' ? { ...signed, description: `${signed.description} Now also books flights.` } : signed;
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new ReplyExecutor());
  const v1 = new JsonRpcTransportHandler(handler);
  const v03 = new LegacyJsonRpcTransportHandler(handler);

  let healthy = true;
  const hits = new Map<string, number>();
  server.on('request', async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', baseUrl).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (claims) claims.requests++;
    if (!healthy) return send(503, { error: 'down for maintenance' });
    if (claims && serveClaimFile(claims, req, res)) return;
    // Any /<prefix>/agent-card.json path serves a card whose endpoint is /<prefix>/a2a/jsonrpc, so one
    // peer stands behind many distinct agents (the well-known card's endpoint is /a2a/jsonrpc).
    if (req.method === 'GET' && path.endsWith('/agent-card.json')) return send(200, await served(path));
    if (req.method === 'GET' && path === '/.well-known/jwks.json' && options.signing) return send(200, { keys: [jwk] });
    if (req.method !== 'POST' || !path.endsWith('/a2a/jsonrpc')) return send(404, { error: 'not found' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const version = (req.headers['a2a-version'] as string | undefined) || '0.3';
    const legacy = version === '0.3';
    const context = defaultServerCallContextBuilder({ extensions: undefined, user: new UnauthenticatedUser(), headers: req.headers as Record<string, string>, requestedVersion: version });
    try {
      validateVersion(context.requestedVersion, card, 'JSONRPC');
      send(200, await (legacy ? v03 : v1).handle(body, context));
    } catch (err) {
      const mapError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
      send(200, { jsonrpc: '2.0', id: body.id ?? null, error: mapError(err) });
    }
  });
  return {
    baseUrl,
    cardUrl: `${baseUrl}/.well-known/agent-card.json`,
    hits,
    setHealthy: (h) => {
      healthy = h;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
