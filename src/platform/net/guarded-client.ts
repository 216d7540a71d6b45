// The one guarded outbound client (DESIGN.md "Safety rules"). Every outbound call Rollcall makes
// to a URL a stranger supplied goes through here: http(s) only, allowed ports, literal and
// resolved addresses checked before dialing and the connected address checked again, redirects
// followed by hand and re-validated, connect/total time limits, a body cap, a per-host
// concurrency cap and an honest User-Agent (and, when set, a Web Bot Auth signature on every request
// and every redirect hop, web-bot-auth.ts). Node's global fetch is never used for this.
import { Agent, buildConnector, request } from 'undici';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refusal, type AddressPolicy } from './address-policy.ts';
import { hostKey } from './host-key.ts';
import type { RequestSigner } from './web-bot-auth.ts';

export type OutboundReason = 'invalid_url' | 'blocked_address' | 'unreachable' | 'timeout' | 'too_large' | 'redirect_loop' | 'downgrade_redirect' | 'host_budget';

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundReason,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** Resolves a host name to every address it has (tests inject their own). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** Knows only the names in `hosts` (a plain table, so it can be handed to another thread); any other name is not found. */
export const tableResolver =
  (hosts: Record<string, string[]>): Resolver =>
  async (name) => {
    const addresses = Object.hasOwn(hosts, name) ? hosts[name] : undefined;
    if (addresses) return addresses;
    throw Object.assign(new Error(`${name} is not resolvable here`), { code: 'ENOTFOUND' });
  };

export interface GuardedClientOptions {
  policy: AddressPolicy;
  userAgent: string;
  resolver?: Resolver;
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBodyBytes?: number;
  maxRedirects?: number;
  perHostConcurrency?: number;
  /** Called with the address just before a connection is dialed (a test spy; never required). */
  onDial?: (address: string, port: number) => void;
  /** Certificate authorities to trust instead of the system's (a test's self-signed loopback server). */
  ca?: string;
  /** Signs each request (setRequestSigner changes it later, after a key rotation). */
  signer?: RequestSigner;
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'HEAD' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /**
   * For answers that may stay open (event streams): given the response headers, a reader that is
   * fed each chunk once and says when it has read enough. Reading stops there.
   */
  until?: (headers: Record<string, string>) => ((chunk: Buffer) => boolean) | undefined;
  /** Ends the request early (a whole probe's deadline, shutdown): it fails as a timeout. */
  signal?: AbortSignal;
  /** Redirects may not leave the first URL's origin (a proof of control is read from the owner's own origin). */
  sameOrigin?: boolean;
  /**
   * The caller already holds a slot of this host (an open event stream whose exchange this request
   * belongs to): the request does not wait for, nor take, another one.
   */
  slotHeld?: boolean;
  /**
   * Asked before every request (each redirect hop too) with the host's key: throws (an
   * OutboundError `host_budget`) when the host's outbound budget has no room (budget/host-budgets.ts).
   */
  admit?: (host: string) => Promise<void>;
}

export interface OutboundResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  redirects: string[];
  elapsedMs: number;
  text(): string;
}

/** What code that fetches needs of the client (handshakes take this, so a probe can bind its deadline). */
export interface Fetcher {
  fetch(url: string, init?: OutboundRequest): Promise<OutboundResponse>;
}

/** The client with every request kept to its own origin across redirects (OutboundRequest.sameOrigin). */
export const sameOriginOnly = (client: Fetcher): Fetcher => ({ fetch: (url, init = {}) => client.fetch(url, { ...init, sameOrigin: true }) });

/** The client with `signal` on every request that brings none (a whole probe's deadline). */
export const withSignal = (client: Fetcher, signal: AbortSignal | undefined): Fetcher =>
  signal ? { fetch: (url, init = {}) => client.fetch(url, { ...init, signal: init.signal ?? signal }) } : client;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * What an answer's body is destroyed with when reading stops early (enough read, or too large).
 * Node reads `err.stack` of every error a stream is destroyed with, and undici makes a fresh error
 * when given none; with source maps on (tsx), formatting that stack cost about 3% of the probing
 * CPU (one per probe of a streaming server). This one is made once, its stack formatted once.
 */
const STOPPED_READING = Object.assign(new Error('stopped reading the answer'), { code: 'RC_STOPPED_READING' });
void STOPPED_READING.stack;
const unbracket = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** Waits its turn per host (hostKey: one registrable domain or IP) so one host never gets more than `limit` requests at once. */
class HostGate {
  private active = new Map<string, number>();
  private waiting = new Map<string, (() => void)[]>();
  constructor(private readonly limit: number) {}
  async enter(host: string, signal: AbortSignal): Promise<void> {
    const n = this.active.get(host) ?? 0;
    if (n < this.limit) {
      this.active.set(host, n + 1);
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const queue = this.waiting.get(host) ?? [];
      const turn = () => {
        signal.removeEventListener('abort', giveUp);
        resolve();
      };
      // A request whose time ran out while waiting leaves the queue instead of taking a slot later.
      const giveUp = () => {
        queue.splice(queue.indexOf(turn), 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', giveUp, { once: true });
      queue.push(turn);
      this.waiting.set(host, queue);
    });
  }
  leave(host: string): void {
    const next = this.waiting.get(host)?.shift();
    if (next) {
      next(); // the slot passes straight to the next waiter
      return;
    }
    const n = (this.active.get(host) ?? 1) - 1;
    if (n <= 0) this.active.delete(host);
    else this.active.set(host, n);
  }
}

export class GuardedClient {
  readonly totalTimeoutMs: number;
  readonly maxBodyBytes: number;
  private readonly policy: AddressPolicy;
  private readonly resolver: Resolver;
  private readonly maxRedirects: number;
  private readonly userAgent: string;
  private readonly gate: HostGate;
  private readonly agent: Agent;
  private signer: RequestSigner | undefined;

  constructor(options: GuardedClientOptions) {
    this.signer = options.signer;
    this.policy = options.policy;
    this.resolver = options.resolver ?? systemResolver;
    this.totalTimeoutMs = options.totalTimeoutMs ?? 10_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
    this.maxRedirects = options.maxRedirects ?? 3;
    this.userAgent = options.userAgent;
    this.gate = new HostGate(options.perHostConcurrency ?? 4);
    const connectTimeout = options.connectTimeoutMs ?? 5_000;
    const dial = buildConnector({ timeout: connectTimeout, ...(options.ca ? { ca: options.ca } : {}) });
    const policy = this.policy;
    const resolver = this.resolver;
    const onDial = options.onDial;
    this.agent = new Agent({
      connectTimeout,
      headersTimeout: this.totalTimeoutMs,
      bodyTimeout: this.totalTimeoutMs,
      // Each exchange the host gate lets through may hold an event stream open while it posts
      // (OutboundRequest.slotHeld): two connections an exchange, or two streaming exchanges with
      // one host would hold every connection with their streams and wait on their posts forever.
      connections: 2 * (options.perHostConcurrency ?? 4),
      // Resolution happens here, and the address we checked is the address we dial: no second
      // lookup that a rebinding DNS server could answer differently.
      connect(opts, callback) {
        const host = unbracket(opts.hostname);
        const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
        (async () => {
          if (!policy.allowPort(port)) throw new OutboundError('blocked_address', `port ${port} is not allowed`);
          let addresses: string[];
          if (isIP(host)) addresses = [host];
          else {
            try {
              addresses = await resolver(host);
            } catch {
              throw new OutboundError('unreachable', `cannot resolve ${host}`);
            }
          }
          if (addresses.length === 0) throw new OutboundError('unreachable', `${host} has no address`);
          // One refused address refuses the name: a resolver mixing public and private answers is not trusted.
          const refused = addresses.find((a) => !policy.allowAddress(a));
          if (refused) throw new OutboundError('blocked_address', `${host} resolves to a non-public address`);
          // Every address is tried in turn (IPv6 first when the resolver says so): a host whose
          // first answer is unreachable from here still gets its request.
          const tryFrom = (i: number, lastError?: Error): void => {
            const address = addresses[i];
            if (address === undefined) {
              callback(lastError ?? new OutboundError('unreachable', 'no address answered'), null);
              return;
            }
            onDial?.(address, port);
            dial({ ...opts, hostname: address, servername: isIP(host) ? undefined : host } as Parameters<typeof dial>[0], (err, socket) => {
              if (err || !socket) return tryFrom(i + 1, err ?? new OutboundError('unreachable', 'no socket'));
              const remote = socket.remoteAddress;
              if (!remote || !policy.allowAddress(remote)) {
                socket.destroy();
                return callback(new OutboundError('blocked_address', 'connected to a non-public address'), null);
              }
              callback(null, socket);
            });
          };
          tryFrom(0);
        })().catch((err) => callback(err, null));
      },
    });
  }

  /** Signs every request from now on with this signer, or none (undefined). */
  setRequestSigner(signer: RequestSigner | undefined): void {
    this.signer = signer;
  }

  /** Checks a URL before any byte is sent: scheme, credentials, port and literal address. */
  validate(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundError('invalid_url', 'not an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('invalid_url', 'only http and https are fetched');
    if (url.username || url.password) throw new OutboundError('invalid_url', 'URLs with credentials are not fetched');
    const refused = this.refusal(url);
    if (refused) throw new OutboundError('blocked_address', refused);
    return url;
  }

  /** Why this client would refuse to reach the URL before any lookup, or undefined (see address-policy refusal). */
  refusal(url: URL): string | undefined {
    return refusal(url, this.policy);
  }

  /** One request, following at most `maxRedirects` redirects, each re-validated. */
  async fetch(raw: string, init: OutboundRequest = {}): Promise<OutboundResponse> {
    const started = Date.now();
    // Checked before any timer starts: a refused URL leaves nothing running behind it.
    let url = this.validate(raw);
    if (init.signal?.aborted) throw new OutboundError('timeout', 'the probe ran out of time before this request');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.totalTimeoutMs);
    // The caller's deadline ends the request too. Forwarded by hand: AbortSignal.any costs two to
    // four times as much per request on Node 20 and keeps weak references for the GC to clear
    // (docs/performance.md, "execute_compose per step").
    const outer = init.signal;
    const forward = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', forward, { once: true });
    const signal = controller.signal;
    const redirects: string[] = [];
    let method = init.method ?? 'GET';
    let body = init.body;
    try {
      for (;;) {
        if (init.admit) await init.admit(hostKey(url));
        const res = await this.once(url, method, init.headers ?? {}, body, signal, init.until, init.slotHeld === true);
        const location = res.headers.location;
        if (!REDIRECTS.has(res.status) || !location) return { ...res, url: url.toString(), redirects, elapsedMs: Date.now() - started };
        if (redirects.length >= this.maxRedirects) throw new OutboundError('redirect_loop', `more than ${this.maxRedirects} redirects`);
        const next = this.validate(new URL(location, url).toString());
        // Once on https, never on to plain http: the rest of the exchange would travel in clear text.
        if (url.protocol === 'https:' && next.protocol === 'http:') throw new OutboundError('downgrade_redirect', `a redirect from https to http (${next.origin}) is not followed`);
        if (init.sameOrigin && next.origin !== url.origin) throw new OutboundError('blocked_address', `a redirect to another origin (${next.origin}) is not followed here`);
        if (next.toString() === url.toString() || redirects.includes(next.toString())) throw new OutboundError('redirect_loop', 'the redirects go round in a loop');
        redirects.push(next.toString());
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
      }
    } catch (err) {
      if (init.signal?.aborted) throw new OutboundError('timeout', 'the probe ran out of time');
      throw controller.signal.aborted ? new OutboundError('timeout', `no complete answer within ${this.totalTimeoutMs} ms`) : toOutboundError(err);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
  }

  private async once(url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal, until: OutboundRequest['until'], slotHeld: boolean) {
    const host = hostKey(url);
    if (!slotHeld) await this.gate.enter(host, signal);
    try {
      const res = await request(url, {
        method: method as 'GET',
        // The signature is made last, for this hop's authority: a caller's headers never replace it.
        headers: { 'user-agent': this.userAgent, ...headers, ...this.signer?.(url, method) },
        body,
        dispatcher: this.agent,
        signal,
      });
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
        res.body.destroy(STOPPED_READING);
        throw new OutboundError('too_large', `the answer is larger than ${this.maxBodyBytes} bytes`);
      }
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      const enough = until?.(flat);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > this.maxBodyBytes) {
          res.body.destroy(STOPPED_READING);
          throw new OutboundError('too_large', `the answer is larger than ${this.maxBodyBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
        if (enough?.(chunk as Buffer)) {
          res.body.destroy(STOPPED_READING);
          break;
        }
      }
      const buffer = Buffer.concat(chunks);
      return { status: res.statusCode, headers: flat, body: buffer, text: () => buffer.toString('utf8') };
    } finally {
      if (!slotHeld) this.gate.leave(host);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Cuts every request in flight (shutdown): they fail at once instead of running to their limits. */
  async destroy(): Promise<void> {
    await this.agent.destroy();
  }
}

function toOutboundError(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = err as { code?: string; message?: string; cause?: unknown };
  if (e.cause instanceof OutboundError) return e.cause;
  switch (e.code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return new OutboundError('timeout', 'the server did not answer in time');
    default:
      return new OutboundError('unreachable', `cannot reach the server (${e.code ?? 'connection failed'})`);
  }
}
