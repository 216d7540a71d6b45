// Builds the production prober from configuration: the guarded client with the configured
// address policy and limits, and an honest User-Agent. The catalog's checks get a prober of their
// own: another User-Agent, two requests at once per host, and a thread of its own in the service.
import type { Config } from '../config.ts';
import { GuardedClient, tableResolver, type Resolver } from '../platform/net/guarded-client.ts';
import { policyFor, type AddressPolicy } from '../platform/net/address-policy.ts';
import { Prober } from './prober.ts';
import { OffThreadProber } from './off-thread.ts';
import type { ThreadSetup } from './thread-messages.ts';

export const probeUserAgent = (config: Config) => `Rollcall-Probe/${config.version} (+${config.publicBaseUrl}/for-agents)`;

type Seams = { resolver?: Resolver; policy?: AddressPolicy; ca?: string };
type ThreadOptions = { hosts?: Record<string, string[]>; onLost?: (err: Error) => void };
type Role = ThreadSetup['role'];

/** Test seams are arguments (a resolver, a policy), never environment switches. */
export function createProber(config: Config, seams: Seams = {}): Prober {
  return new Prober(guardedClient(config, 'probe', seams), config.probeAllowPrivate);
}

/** The prober of catalog checks (its `check`), on the thread that calls it: the CLI's and the tests'. */
export function createChecker(config: Config, seams: Seams = {}): Prober {
  return new Prober(guardedClient(config, 'check', seams), config.probeAllowPrivate);
}

/**
 * The service's prober: its probes run on a thread of their own (off-thread.ts). A test seam must
 * cross to that thread, so it is a plain table of host names (the thread's resolver knows only
 * them), not a function.
 */
export const createServiceProber = (config: Config, options: ThreadOptions = {}) => onThread(config, 'probe', options);

/**
 * The service's checker: catalog checks on a second thread, apart from the listing probes' (a
 * check's handshake on the service's loop held up publishes; on the probe thread it would hold up
 * their probes).
 */
export const createServiceChecker = (config: Config, options: ThreadOptions = {}) => onThread(config, 'check', options);

function onThread(config: Config, role: Role, options: ThreadOptions): OffThreadProber {
  const resolver = options.hosts ? tableResolver(options.hosts) : undefined;
  return new OffThreadProber(guardedClient(config, role, { resolver }), config.probeAllowPrivate, { config, hosts: options.hosts, role }, options.onLost);
}

/**
 * The guarded client of probes, or of catalog checks: the same address policy, time and body
 * limits; checks say so in their User-Agent and take two requests at once per host.
 */
function guardedClient(config: Config, role: Role, seams: Seams): GuardedClient {
  return new GuardedClient({
    policy: seams.policy ?? policyFor(config.probeAllowPrivate),
    resolver: seams.resolver,
    ca: seams.ca,
    userAgent: role === 'probe' ? probeUserAgent(config) : `Rollcall-Check/${config.version} (+${config.publicBaseUrl}/for-agents)`,
    connectTimeoutMs: config.probeConnectTimeoutMs,
    totalTimeoutMs: config.probeTimeoutMs,
    maxBodyBytes: config.probeMaxBodyBytes,
    perHostConcurrency: role === 'probe' ? config.probePerHost : 2,
  });
}
