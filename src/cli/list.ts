// `rollcall list <url>`: publishes (list_yourself) and waits until the listing's probe decides.
// In this process on the configured database by default, or against a running Rollcall with
// --server (its REST door, as any publisher would). Both sides answer the same shapes: publish's
// answer, then check_status polled while the lane is queued or probing.
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { loadConfig } from '../config.ts';
import { AppError } from '../platform/errors.ts';
import { runOperation } from '../platform/operation.ts';
import { checkStatus, publish } from '../registry/operations.ts';
import { probeListingHere } from '../probe/run-here.ts';
import { openLocal } from './local.ts';
import { EXIT, Failure, UsageError, emit, interruptible, wholeNumber, type Invocation, type Runner } from './command.ts';

const POLL_MS = 500;
const DEFAULT_TIMEOUT_S = 60;
const PENDING = new Set(['queued', 'probing']);

interface Status {
  listing_id: string;
  url: string;
  name: string;
  kind: string;
  lane: string;
  lane_reason: string | null;
  /** On a duplicate: the listing that already reaches the same endpoint. */
  duplicate_of?: string;
  probe?: { ok: boolean; handshake: string; score: number | null; probed_at: string | null };
  next: string;
  status_url?: string;
  badges?: { markdown: string };
}
interface Published extends Status {
  outcome: 'listed' | 'queued';
  already_listed: boolean;
  reprobe: { queued: boolean; next_probe_at: string | null; reason?: string };
}

/** Where the listing is written and read: this process, or a Rollcall server over HTTP. */
interface Registry {
  via: string;
  publish(input: Record<string, string>): Promise<Published>;
  status(id: string): Promise<Status>;
  /** Runs the listing's probe here when it is due and free (this process only). */
  probeHere?(id: string, stop: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}

async function localRegistry(inv: Invocation): Promise<Registry> {
  const local = await openLocal(loadConfig(inv.io.env), inv.io);
  const { services } = local;
  return {
    via: 'this process',
    publish: async (input) => (await runOperation(publish, local.ctx(), input, 'cli')) as Published,
    status: async (id) => (await runOperation(checkStatus, local.ctx(), { id }, 'cli')) as Status,
    probeHere: (id, stop) => probeListingHere(services, services.probe, id, stop),
    close: () => local.close(),
  };
}

function serverBase(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--server must be a base URL such as http://localhost:8080, not ${JSON.stringify(raw)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) throw new UsageError('--server must be an http(s) base URL such as http://localhost:8080');
  return url.href.replace(/\/+$/, '');
}

function remoteRegistry(base: string): Registry {
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(`${base}${path}`, {
        method,
        headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
    } catch (err) {
      throw new Failure(`cannot reach the Rollcall at ${base}: ${(err as Error).message}`, 'server_unreachable');
    }
    const text = await res.body.text();
    let json: { ok?: boolean; error?: { code: string; message: string; field?: string } } & Record<string, unknown>;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Failure(`${base}${path} answered ${res.statusCode} without JSON: is it a Rollcall?`, 'not_rollcall');
    }
    // The server's own error, as if the operation had failed here (a 400 invalid_url is a usage error).
    if (res.statusCode !== 200) throw new AppError(res.statusCode, json.error?.code ?? 'failed', json.error?.message ?? `HTTP ${res.statusCode}`, json.error?.field);
    return json;
  };
  return {
    via: base,
    publish: async (input) => (await call('POST', '/api/publish', input)) as unknown as Published,
    status: async (id) => (await call('GET', `/api/listings/status?id=${encodeURIComponent(id)}`)) as unknown as Status,
    close: async () => {},
  };
}

/** The listing this publish made turned out to be a duplicate: the URL reaches that other listing. */
interface Duplicate {
  listing_id: string;
  url: string;
}

function describe(s: Status & Partial<Published> & { duplicate?: Duplicate }, via: string, waited: { ms: number; timedOut: boolean }): string {
  const probe = s.probe;
  const lines = [
    s.duplicate
      ? `already listed ${s.listing_id} via ${via} (${s.duplicate.url} reaches the same ${s.kind === 'agent' ? 'agent' : 'server'})`
      : s.already_listed
        ? `already listed ${s.listing_id} via ${via} (re-probe ${s.reprobe?.queued ? 'queued' : 'not due yet'})`
        : `${s.outcome ?? 'status'} ${s.listing_id} via ${via}`,
    `  url      ${s.url}`,
    `  name     ${s.name}`,
    `  kind     ${s.kind}`,
    `  lane     ${s.lane}${s.lane_reason ? ` (${s.lane_reason})` : ''}`,
    ...(probe ? [`  probe    ${probe.probed_at ? `${probe.ok ? 'ok' : 'failed'}, handshake ${probe.handshake}, score ${probe.score ?? '-'}` : 'not yet'}`] : []),
    ...(waited.timedOut ? [`  waiting  still ${s.lane} after ${Math.round(waited.ms / 1000)} s: poll the status URL, or run again with a longer --timeout`] : []),
    `  next     ${s.next}`,
    ...(s.status_url ? [`  status   ${s.status_url}`] : []),
    ...(s.badges ? [`  badge    ${s.badges.markdown}`] : []),
  ];
  return lines.join('\n');
}

export const run: Runner = async (inv) => {
  const timeoutMs = wholeNumber(inv, 'timeout', DEFAULT_TIMEOUT_S) * 1000;
  const wait = inv.values['no-wait'] !== true;
  const input: Record<string, string> = { url: inv.positionals[0]! };
  if (inv.values.name !== undefined) input.name = String(inv.values.name);
  if (inv.values.email !== undefined) input.contact_email = String(inv.values.email);
  input.source = inv.values.source !== undefined ? String(inv.values.source) : 'rollcall-cli';
  const registry = inv.values.server !== undefined ? remoteRegistry(serverBase(String(inv.values.server))) : await localRegistry(inv);
  try {
    const published = await registry.publish(input);
    const id = published.listing_id;
    const started = Date.now();
    let status: Status = published;
    let interrupted = false;
    if (wait && published.reprobe.queued) {
      ({ interrupted } = await interruptible(async (stop) => {
        for (;;) {
          await registry.probeHere?.(id, stop);
          status = await registry.status(id);
          if (stop.aborted || !PENDING.has(status.lane) || Date.now() - started >= timeoutMs) return;
          await sleep(POLL_MS, undefined, { signal: stop }).catch(() => undefined);
        }
      }));
    } else if (wait) {
      status = await registry.status(id);
    }
    const waited = { ms: Date.now() - started, timedOut: wait && !interrupted && PENDING.has(status.lane) };
    // The probe found the URL to be another spelling of a listing (its card's location, its
    // endpoint): that listing is the one this URL reaches, as publishing it again would answer.
    let duplicate: Duplicate | undefined;
    if (status.lane_reason === 'duplicate_of' && status.duplicate_of) {
      // An original that cannot be read (deleted since) leaves the duplicate's own status shown.
      const original = await registry.status(status.duplicate_of).catch((err) => {
        if (err instanceof AppError) return undefined;
        throw err;
      });
      if (original) {
        duplicate = { listing_id: status.listing_id, url: status.url };
        status = original;
      }
    }
    const live = status.lane === 'active';
    const answer = { ...status, outcome: published.outcome, already_listed: published.already_listed, reprobe: published.reprobe, ...(duplicate ? { duplicate } : {}), live, waited_ms: waited.ms, via: inv.values.server !== undefined ? 'server' : 'local' };
    emit(inv, answer, () => describe(answer, registry.via, waited));
    if (interrupted) return EXIT.interrupted;
    return !wait || live ? EXIT.ok : EXIT.failed;
  } finally {
    await registry.close();
  }
};
