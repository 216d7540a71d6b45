// The prober (DESIGN.md "Probe", "Clean checks", "Score"): decides what a URL is (an A2A agent
// card or an MCP server), proves it with a real protocol exchange through the guarded client,
// runs the clean checks and scores it. It writes nothing: callers decide what to store.
import { type Fetcher, type GuardedClient, OutboundError, type OutboundReason, withSignal } from '../platform/net/guarded-client.ts';
import { webBotAuthSigner, type SigningIdentity } from '../platform/net/web-bot-auth.ts';
import { looksLikeCard, parseAgentCard, type AgentCard } from './agent-card.ts';
import { a2aHandshake } from './a2a-handshake.ts';
import { checkCardSignature, type CardSignatureCheck } from './card-signature.ts';
import { mcpHandshake, LEGACY_VERSIONS, MODERN_VERSION, type McpHandshake } from './mcp-handshake.ts';
import { SSE_VERSION } from './sse-handshake.ts';
import { scoreProbe, type Capability, type ScoreBreakdown } from './score.ts';
import { MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import { checkRemote, type RemoteToCheck } from './remote-check.ts';
import type { CheckFindings } from '../catalog/checks-store.ts';

export type FailReason = OutboundReason | 'not_a_card' | 'invalid_card' | 'handshake_failed' | 'auth_required' | 'checks_failed' | 'duplicate_of';

export interface Check {
  id: 'url_allowed' | 'parsed' | 'name_clean' | 'description_clean' | 'unique_url' | 'protocol_version' | 'within_limits';
  pass: boolean;
  detail: string;
}

export interface ProbeReport {
  /** A real protocol exchange succeeded (`handshake: "ok"`). */
  ok: boolean;
  /** ok and every check passed: the listing may be Live. */
  live: boolean;
  kind: 'agent' | 'mcp';
  reason: FailReason | null;
  detail: string;
  handshake: 'ok' | 'failed' | 'auth_required';
  /** The URL the handshake ran against (the agent's JSON-RPC endpoint, or the MCP remote after redirects). */
  target: string;
  /** Where the agent card was found (agents only). */
  cardUrl?: string;
  /** Whether the agent card is signed and its signature holds (agents only; card-signature.ts). */
  cardSignature?: CardSignatureCheck;
  /** Another listing that already owns this endpoint or card (reason duplicate_of). */
  duplicateOf?: string;
  protocol: string | null;
  latencyMs: number | null;
  name?: string;
  /** Other names the listing answers to that `name` is not (an MCP server's serverInfo name under its title): checked against other listings' names too. */
  otherNames?: string[];
  description?: string;
  /**
   * An MCP server's `instructions`: text written for a model (often long, often addressed to it),
   * kept apart from the description and shown under its own heading, never indexed.
   */
  instructions?: string;
  version?: string;
  website?: string;
  capabilities: Capability[];
  /** An MCP server's tool list as served: its size in bytes, and whether it ran past the body limit (counted to it). */
  toolList?: { bytes: number; truncated: boolean };
  checks: Check[];
  score: number;
  breakdown: ScoreBreakdown;
}

/** What one probe path observed, before the checks and the score are worked out. */
type Observed = Pick<ProbeReport, 'kind' | 'ok' | 'reason' | 'detail' | 'target' | 'cardUrl' | 'cardSignature' | 'protocol' | 'latencyMs' | 'name' | 'otherNames' | 'description' | 'instructions' | 'version' | 'website' | 'capabilities' | 'toolList'> & {
  parsed: boolean;
  publicMetadata: boolean;
  reached?: boolean;
  limitsOk?: boolean;
};

export const A2A_VERSIONS = ['1.0', '0.3'];
const WELL_KNOWN_CARDS = ['/.well-known/agent-card.json', '/.well-known/agent.json'];
const MARKUP = /<\/?[a-z!][^>]*>/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export type ProbePhase = 'card' | 'well_known' | 'mcp' | 'a2a' | 'metadata';

/** What check_liveness learns: whether the listing still answers its protocol's handshake. */
export interface Liveness {
  ok: boolean;
  reason: FailReason | null;
  detail: string;
  latencyMs: number | null;
  target: string;
}

export interface ProbeOptions {
  /** The listing's current kind guess: which protocol is tried first. */
  hint?: 'agent' | 'mcp';
  /** The id of another listing that already owns this URL (another spelling of it), if any. */
  takenByOther?: (url: string) => Promise<string | undefined>;
  /** The whole probe's deadline (and shutdown): every request stops when it fires. */
  signal?: AbortSignal;
  /** Told how long each phase took (for /metrics). */
  onPhase?: (phase: ProbePhase, ms: number) => void;
  /** Asked before each request with the host's key; throws when the host's outbound budget has no room. */
  admit?: (host: string) => Promise<void>;
}

type CardFetch = { card?: AgentCard; /** The card as served (its signatures are checked over it). */ doc?: Record<string, unknown>; url: string; invalid?: string[]; error?: OutboundError; json: boolean; auth?: boolean; serverError?: number };

/** The most of an MCP server's instructions a report keeps. */
const MAX_INSTRUCTIONS = 4000;


/** The card's endpoint as an absolute URL (relative ones resolve against the card), if it is one. */
function resolveEndpoint(endpoint: string, cardUrl: string): string | undefined {
  try {
    return new URL(endpoint, cardUrl).toString();
  } catch {
    return undefined;
  }
}

const isAuth = (status: number, headers: Record<string, string>) => (status === 401 || status === 403) && Boolean(headers['www-authenticate']);

/** Probes URLs through one guarded client; each probe is a ProbeRun bound to its own deadline. */
export class Prober {
  protected onFetch: (() => void) | undefined;
  constructor(
    private readonly client: GuardedClient,
    private readonly allowPrivate: boolean,
  ) {}

  /** Calls `listener` once per outbound fetch a probe makes (the assembly counts them: get_platform_cost). */
  observeFetches(listener: () => void): void {
    this.onFetch = listener;
  }

  private run(options: ProbeOptions): ProbeRun {
    const signaled = withSignal(this.client, options.signal);
    const admit = options.admit;
    const bound: Fetcher = admit ? { fetch: (url, init = {}) => signaled.fetch(url, { ...init, admit: init.admit ?? admit }) } : signaled;
    const listener = this.onFetch;
    const counted: Fetcher = listener
      ? {
          fetch: (url, init) => {
            listener();
            return bound.fetch(url, init);
          },
        }
      : bound;
    return new ProbeRun(counted, this.allowPrivate, options.onPhase);
  }

  /** Never throws: whatever goes wrong becomes a failed report with its reason. */
  probe(url: string, options: ProbeOptions = {}): Promise<ProbeReport> {
    return this.run(options).probe(url, options);
  }

  /** Why this prober would refuse to reach the URL at all (its address policy), or undefined. */
  refusal(url: string): string | undefined {
    return this.client.refusal(new URL(url));
  }

  /**
   * The guarded client bound to `signal` (a caller's deadline) and to a host budget (`admit`), for
   * calls other domains make to a listing's endpoint (execute_compose, proofs of control): the same
   * address policy, limits and User-Agent as probes.
   */
  outbound(signal?: AbortSignal, admit?: (host: string) => Promise<void>): Fetcher {
    const bound = withSignal(this.client, signal);
    return admit ? { fetch: (url, init = {}) => bound.fetch(url, { ...init, admit: init.admit ?? admit }) } : bound;
  }

  /** Only the handshake, for check_liveness: is it still answering its protocol? */
  liveness(url: string, kind: 'agent' | 'mcp', options: Pick<ProbeOptions, 'signal' | 'admit'> = {}): Promise<Liveness> {
    return this.run(options).liveness(url, kind);
  }

  /**
   * A catalog remote's health check (remote-check.ts) through this prober's client, as public work
   * under `admit`; undefined when the host's budget had no room.
   */
  check(row: RemoteToCheck, options: Pick<ProbeOptions, 'admit'> = {}): Promise<CheckFindings | undefined> {
    return checkRemote(this.outbound(undefined, options.admit), row);
  }

  /**
   * Signs every request of this prober's client from now on (Web Bot Auth), or none: the assembly
   * hands the service's current key here at start and after it changes.
   */
  useSigningIdentity(identity: SigningIdentity | undefined): void {
    this.client.setRequestSigner(identity ? webBotAuthSigner(identity) : undefined);
  }

  /** Ready to probe (a prober with a thread of its own starts it; this one has nothing to start). */
  async prepare(): Promise<void> {}

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Stops probes in flight (shutdown); their callers must not take the cut for the server's failure. */
  async abort(): Promise<void> {
    await this.client.destroy();
  }
}

class ProbeRun {
  constructor(
    private readonly client: Fetcher,
    private readonly allowPrivate: boolean,
    private readonly onPhase?: ProbeOptions['onPhase'],
  ) {}

  /** Runs one step of the probe, telling its duration. */
  private async timed<T>(phase: ProbePhase, step: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await step();
    } finally {
      this.onPhase?.(phase, performance.now() - started);
    }
  }

  private fetchCard(url: string): Promise<CardFetch> {
    return this.timed('card', () => this.fetchCardNow(url));
  }

  private async fetchCardNow(url: string): Promise<CardFetch> {
    try {
      // An event stream (an HTTP+SSE MCP endpoint) is no card: stop at its first bytes, not at the timeout.
      const res = await this.client.fetch(url, { headers: { accept: 'application/json' }, until: (headers) => ((headers['content-type'] ?? '').includes('text/event-stream') ? () => true : undefined) });
      if (isAuth(res.status, res.headers)) return { url, json: false, auth: true };
      if (res.status >= 500) return { url, json: false, serverError: res.status };
      if (res.status !== 200) return { url, json: false };
      let doc: unknown;
      try {
        doc = JSON.parse(res.text());
      } catch {
        return { url, json: false };
      }
      if (!looksLikeCard(doc)) return { url: res.url, json: true };
      const parsed = parseAgentCard(doc);
      return parsed.ok ? { url: res.url, json: true, card: parsed.card, doc: doc as Record<string, unknown> } : { url: res.url, json: true, invalid: parsed.problems };
    } catch (err) {
      return { url, json: false, error: err instanceof OutboundError ? err : new OutboundError('unreachable', String(err)) };
    }
  }

  /** Server card (and RFC 9728 metadata for protected servers): public facts about an MCP server. */
  private publicMetadata(url: string, resourceMetadata?: string): Promise<{ found: boolean; description?: string; website?: string; version?: string }> {
    return this.timed('metadata', () => this.publicMetadataNow(url, resourceMetadata));
  }

  private async publicMetadataNow(url: string, resourceMetadata?: string): Promise<{ found: boolean; description?: string; website?: string; version?: string }> {
    const candidates = [resourceMetadata, new URL('/.well-known/mcp/server-card.json', url).toString()].filter((u): u is string => Boolean(u));
    for (const candidate of candidates) {
      try {
        const res = await this.client.fetch(candidate, { headers: { accept: 'application/json' } });
        if (res.status !== 200) continue;
        const doc = JSON.parse(res.text()) as Record<string, unknown>;
        if (typeof doc !== 'object' || doc === null) continue;
        return {
          found: true,
          description: typeof doc.description === 'string' ? doc.description : undefined,
          website: typeof doc.website_url === 'string' ? doc.website_url : typeof doc.websiteUrl === 'string' ? doc.websiteUrl : undefined,
          version: typeof doc.version === 'string' ? doc.version : undefined,
        };
      } catch {
        /* not published, or not JSON: nothing public to add */
      }
    }
    return { found: false };
  }

  /**
   * Probes a URL. What the network or the server does becomes the report (its reason and checks);
   * any other throw is Rollcall's own trouble (the database behind `takenByOther`, a bug) and goes
   * to the caller, which must not record it against the listing.
   */
  async probe(url: string, options: ProbeOptions = {}): Promise<ProbeReport> {
    try {
      return await this.discover(url, options);
    } catch (err) {
      if (err instanceof OutboundError) return this.failure(url, options.hint ?? 'mcp', err.reason, err.message);
      throw err;
    }
  }

  /** A card (valid or not) at the origin's well-known paths, unless the URL is one of them. */
  private wellKnownCard(url: string): Promise<CardFetch | undefined> {
    return this.timed('well_known', async () => {
      if (WELL_KNOWN_CARDS.includes(new URL(url).pathname)) return undefined;
      for (const path of WELL_KNOWN_CARDS) {
        const found = await this.fetchCardNow(new URL(path, url).toString());
        if (found.card || found.invalid) return found;
      }
      return undefined;
    });
  }

  private mcpHandshake(url: string): Promise<McpHandshake> {
    return this.timed('mcp', () => mcpHandshake(this.client, url));
  }

  private a2aHandshake(endpoint: string, protocol: '0.3' | '1.0') {
    return this.timed('a2a', () => a2aHandshake(this.client, endpoint, protocol));
  }

  /** The card at the URL, else at the origin's well-known paths. */
  private async findCard(url: string): Promise<CardFetch> {
    const first = await this.fetchCard(url);
    if (first.card || first.invalid || first.error) return first;
    return (await this.wellKnownCard(url)) ?? first;
  }

  private async discover(url: string, options: ProbeOptions): Promise<ProbeReport> {
    const hint = options.hint ?? 'mcp';
    const first = await this.fetchCard(url);
    if (first.error && first.error.reason !== 'timeout') return this.failure(url, hint, first.error.reason, first.error.message);
    if (first.card) return this.agent(url, first, options);
    if (first.invalid) return this.failure(url, 'agent', 'invalid_card', `the agent card does not validate: ${first.invalid.join('; ')}`);

    let wellKnown: CardFetch | undefined;
    if (hint === 'agent') {
      wellKnown = await this.wellKnownCard(url);
      if (wellKnown?.card) return this.agent(url, wellKnown, options);
    }
    const mcp = await this.mcpHandshake(url);
    if (mcp.ok) return this.mcp(url, mcp, options);
    if (mcp.auth) return this.authRequired(url, mcp);
    if (hint === 'mcp') {
      wellKnown = await this.wellKnownCard(url);
      if (wellKnown?.card) return this.agent(url, wellKnown, options);
    }
    if (wellKnown?.invalid) return this.failure(url, 'agent', 'invalid_card', `the agent card does not validate: ${wellKnown.invalid.join('; ')}`);
    if (first.auth) return this.failure(url, hint, 'auth_required', 'the URL requires authorization');
    if (mcp.spokeJsonRpc) return this.failure(url, 'mcp', 'handshake_failed', mcp.detail ?? 'the MCP handshake did not complete');
    const netError = first.error ?? mcp.error;
    if (netError) return this.failure(url, hint, netError.reason, netError.message);
    if (first.serverError) return this.failure(url, hint, 'unreachable', `the server answers HTTP ${first.serverError}`);
    return this.failure(url, hint, 'not_a_card', first.json ? 'the URL serves JSON that is neither an agent card nor an MCP server' : 'the URL is neither an agent card nor an MCP server');
  }

  async liveness(url: string, kind: 'agent' | 'mcp'): Promise<Liveness> {
    if (kind === 'mcp') {
      const mcp = await this.mcpHandshake(url);
      if (mcp.ok) return { ok: true, reason: null, detail: 'handshake ok', latencyMs: mcp.latencyMs, target: url };
      const reason: FailReason = mcp.auth ? 'auth_required' : mcp.error?.reason ?? 'handshake_failed';
      return { ok: false, reason, detail: mcp.detail ?? reason, latencyMs: null, target: url };
    }
    const card = await this.findCard(url);
    const endpoint = card.card?.endpoint ? resolveEndpoint(card.card.endpoint, card.url) : undefined;
    if (!card.card || !endpoint) {
      const reason: FailReason = card.error?.reason ?? (card.invalid ? 'invalid_card' : card.card ? 'handshake_failed' : 'not_a_card');
      return { ok: false, reason, detail: card.error?.message ?? reason, latencyMs: null, target: url };
    }
    const hs = await this.a2aHandshake(endpoint, card.card.protocol);
    const reason: FailReason | null = hs.ok ? null : hs.auth ? 'auth_required' : hs.error?.reason ?? 'handshake_failed';
    return { ok: hs.ok, reason, detail: hs.detail ?? 'handshake ok', latencyMs: hs.latencyMs, target: endpoint };
  }

  private async agent(url: string, found: CardFetch, options: ProbeOptions): Promise<ProbeReport> {
    const card = found.card!;
    const cardUrl = found.url;
    // Whether the card's signature holds is a fact shown beside the listing, not a check: an
    // unsigned card (most are) or one whose signature fails can still be Live.
    const cardSignature = await checkCardSignature(found.doc ?? {}, cardUrl, this.client);
    const capabilities: Capability[] = card.skills.map((s) => ({ name: s.id, title: s.name, description: s.description, params: [], tags: s.tags, ...(s.examples?.length ? { examples: s.examples } : {}) }));
    const common = { kind: 'agent' as const, cardUrl, cardSignature, name: card.name, description: card.description, version: card.version, website: card.website ?? card.documentationUrl, capabilities };
    const endpoint = card.endpoint ? resolveEndpoint(card.endpoint, cardUrl) : undefined;
    if (!endpoint) {
      const detail = card.endpoint ? 'the card declares an endpoint that is not a valid URL' : 'the card declares no JSON-RPC interface';
      return this.finish(url, { ...common, ok: false, reason: 'handshake_failed', detail, target: cardUrl, protocol: card.protocol, latencyMs: null, parsed: true, publicMetadata: card.hasProvider }, options);
    }
    const hs = await this.a2aHandshake(endpoint, card.protocol);
    const reason: FailReason | null = hs.ok ? null : hs.auth ? 'auth_required' : hs.error?.reason ?? 'handshake_failed';
    return this.finish(
      url,
      { ...common, ok: hs.ok, reason, detail: hs.detail ?? `A2A ${card.protocol} card and JSON-RPC endpoint answer`, target: endpoint, protocol: `a2a/${card.protocol}`, latencyMs: hs.latencyMs, parsed: true, publicMetadata: card.hasProvider, reached: true, limitsOk: hs.error?.reason !== 'too_large' && hs.error?.reason !== 'timeout' },
      options,
    );
  }

  private async mcp(url: string, hs: McpHandshake, options: ProbeOptions): Promise<ProbeReport> {
    const meta = await this.publicMetadata(url);
    return this.finish(
      url,
      {
        kind: 'mcp',
        ok: true,
        reason: null,
        detail: `MCP ${hs.protocol} handshake and tools/list answered`,
        target: hs.endpoint ?? url,
        protocol: hs.protocol ?? null,
        latencyMs: hs.latencyMs,
        name: hs.serverTitle ?? hs.serverName,
        ...(hs.serverTitle && hs.serverName ? { otherNames: [hs.serverName] } : {}),
        // A description is what the server says it is (its card, its serverInfo); instructions are for models.
        description: meta.description ?? hs.serverDescription,
        ...(hs.instructions ? { instructions: hs.instructions.slice(0, MAX_INSTRUCTIONS) } : {}),
        version: hs.serverVersion ?? meta.version,
        website: hs.website ?? meta.website,
        capabilities: hs.tools,
        ...(hs.toolsBytes !== undefined ? { toolList: { bytes: hs.toolsBytes, truncated: hs.toolsTruncated === true } } : {}),
        parsed: true,
        publicMetadata: meta.found,
      },
      options,
    );
  }

  private async authRequired(url: string, hs: McpHandshake): Promise<ProbeReport> {
    // Scored for what is public: the server answered, and may publish a card or resource metadata.
    const meta = await this.publicMetadata(url, hs.auth?.resourceMetadata);
    return this.finish(url, {
      kind: 'mcp',
      ok: false,
      reason: 'auth_required',
      detail: 'the server requires authorization (401/403 with WWW-Authenticate); only public metadata was scored',
      target: url,
      protocol: null,
      latencyMs: null,
      description: meta.description,
      version: meta.version,
      website: meta.website,
      capabilities: [],
      parsed: false,
      publicMetadata: meta.found,
      reached: true,
    });
  }

  private failure(url: string, kind: 'agent' | 'mcp', reason: FailReason, detail: string): Promise<ProbeReport> {
    const reached = !['unreachable', 'timeout', 'blocked_address', 'redirect_loop', 'downgrade_redirect', 'host_budget'].includes(reason);
    return this.finish(url, { kind, ok: false, reason, detail, target: url, protocol: null, latencyMs: null, capabilities: [], parsed: false, publicMetadata: false, reached, limitsOk: reason !== 'too_large' && reason !== 'timeout' });
  }

  private async finish(url: string, r: Observed, options: ProbeOptions = {}): Promise<ProbeReport> {
    const parsedUrl = new URL(url);
    const https = parsedUrl.protocol === 'https:';
    // The https points go to the hop that answered: the endpoint reached after redirects (the
    // guarded client never follows https to http) or, for an agent, the JSON-RPC endpoint its card names.
    const answeredOverHttps = URL.canParse(r.target) && new URL(r.target).protocol === 'https:';
    const name = r.name ?? '';
    const description = r.description ?? '';
    const speaks = r.protocol === null || r.protocol === MODERN_VERSION || LEGACY_VERSIONS.includes(r.protocol) || r.protocol === SSE_VERSION || A2A_VERSIONS.includes(r.protocol.replace('a2a/', ''));
    // One server, one listing: the endpoint (or the card) reached may already be another listing's.
    let taken: string | undefined;
    for (const reached of r.ok ? [r.target, r.cardUrl] : []) if (reached && !taken && options.takenByOther) taken = await options.takenByOther(reached);
    // A URL the address policy refused was never fetched: say so, not that it failed to parse.
    const refused = r.reason === 'blocked_address';
    const checks: Check[] = [
      {
        id: 'url_allowed',
        pass: !refused && (https || this.allowPrivate) && !parsedUrl.username && !parsedUrl.password,
        detail: refused ? `refused by the address policy: ${r.detail}` : https ? 'https, no credentials' : this.allowPrivate ? 'http allowed (PROBE_ALLOW_PRIVATE=1)' : 'https is required',
      },
      {
        id: 'parsed',
        pass: r.parsed && r.ok,
        detail: r.ok ? 'the card or handshake parsed and validated' : r.parsed || r.reached ? r.detail : refused ? 'not fetched (see url_allowed)' : `nothing to parse: ${r.detail}`,
      },
      {
        id: 'name_clean',
        pass: name.trim().length > 0 ? name.length <= MAX_NAME && !MARKUP.test(name) && !CONTROL.test(name) : r.kind === 'mcp' && r.ok,
        detail: name ? `at most ${MAX_NAME} characters, no markup or control characters` : 'no name given (the host stands in)',
      },
      { id: 'description_clean', pass: description.length <= MAX_DESCRIPTION && !MARKUP.test(description) && !CONTROL.test(description), detail: `at most ${MAX_DESCRIPTION} characters, no markup or control characters` },
      { id: 'unique_url', pass: !taken, detail: taken ? `listing ${taken} already reaches this endpoint` : 'no other listing reaches this endpoint' },
      { id: 'protocol_version', pass: r.ok ? speaks : false, detail: r.protocol ? `speaks ${r.protocol}` : 'no protocol version was negotiated' },
      { id: 'within_limits', pass: r.limitsOk ?? true, detail: 'the answers stayed within the size and time limits' },
    ];
    const reached = r.reached ?? r.ok;
    const { score, breakdown } = scoreProbe({
      reached,
      handshake: r.ok,
      // https earns its points only when the answer came over it (a refused URL earns none).
      https: https && answeredOverHttps && reached,
      latencyMs: r.latencyMs,
      name: r.name,
      description: r.description,
      version: r.version,
      website: r.website,
      publicMetadata: r.publicMetadata,
      capabilities: r.capabilities,
    });
    const clean = checks.every((c) => c.pass);
    const failed = checks.filter((c) => !c.pass).map((c) => c.id);
    return {
      ok: r.ok,
      live: r.ok && clean,
      kind: r.kind,
      reason: r.reason ?? (taken ? 'duplicate_of' : clean ? null : 'checks_failed'),
      detail: r.reason || clean ? r.detail : taken ? `the same endpoint as listing ${taken}` : `checks failed: ${failed.join(', ')}`,
      handshake: r.ok ? 'ok' : r.reason === 'auth_required' ? 'auth_required' : 'failed',
      target: r.target,
      ...(r.cardUrl ? { cardUrl: r.cardUrl } : {}),
      ...(r.cardSignature ? { cardSignature: r.cardSignature } : {}),
      ...(taken ? { duplicateOf: taken } : {}),
      protocol: r.protocol,
      latencyMs: r.latencyMs,
      name: r.name,
      ...(r.otherNames ? { otherNames: r.otherNames } : {}),
      description: r.description,
      ...(r.instructions ? { instructions: r.instructions } : {}),
      version: r.version,
      website: r.website,
      capabilities: r.capabilities,
      ...(r.toolList ? { toolList: r.toolList } : {}),
      checks,
      score,
      breakdown,
    };
  }

}
