// Builds the production prober from configuration: the guarded client with the configured
// address policy and limits, and an honest User-Agent. The catalog's checks get a prober of their
// own: another User-Agent, two requests at once per host, and a thread of its own in the service.
import type { Config } from '../config.ts';
import { GuardedClient, tableResolver, type Resolver } from '../platform/net/guarded-client.ts';
import { policyFor, type AddressPolicy } from '../platform/net/address-policy.ts';
import { Prober } from './prober.ts';
import { OffThreadProber } from './off-thread.ts';

export const probeUserAgent = (config: Config) => `Rollcall-Probe/${config.version} (+${config.publicBaseUrl}/for-agents)`;

type Seams = { resolver?: Resolver; policy?: AddressPolicy; ca?: string };
type ThreadOptions = { hosts?: Record<string, string[]>; onLost?: (err: Error) => void };

/** Test seams are arguments (a resolver, a policy), never environment switches. */
export function createProber(config: Config, seams: Seams = {}): Prober {
  return new Prober(guardedClient(config, seams), config.probeAllowPrivate);
}

/** The prober of catalog checks (its `check`), on the thread that calls it: the CLI's and the tests'. */
export function createChecker(config: Config, seams: Seams = {}): Prober {
  return new Prober(checkClient(config, seams), config.probeAllowPrivate);
}

/**
 * The service's prober: its probes run on a thread of their own (off-thread.ts). A test seam must
 * cross to that thread, so it is a plain table of host names (the thread's resolver knows only
 * them), not a function.
 */
export function createServiceProber(config: Config, options: ThreadOptions = {}): OffThreadProber {
  const resolver = options.hosts ? tableResolver(options.hosts) : undefined;
  return new OffThreadProber(guardedClient(config, { resolver }), config.probeAllowPrivate, { config, hosts: options.hosts, role: 'probe' }, options.onLost);
}

/**
 * The service's checker: catalog checks on a second thread, apart from the listing probes' (a
 * check's handshake on the service's loop held up publishes; on the probe thread it would hold up
 * their probes).
 */
export function createServiceChecker(config: Config, options: ThreadOptions = {}): OffThreadProber {
  const resolver = options.hosts ? tableResolver(options.hosts) : undefined;
  return new OffThreadProber(checkClient(config, { resolver }), config.probeAllowPrivate, { config, hosts: options.hosts, role: 'check' }, options.onLost);
}

function guardedClient(config: Config, seams: Seams): GuardedClient {
  return new GuardedClient({
    policy: seams.policy ?? policyFor(config.probeAllowPrivate),
    resolver: seams.resolver,
    ca: seams.ca,
    userAgent: probeUserAgent(config),
    connectTimeoutMs: config.probeConnectTimeoutMs,
    totalTimeoutMs: config.probeTimeoutMs,
    maxBodyBytes: config.probeMaxBodyBytes,
    perHostConcurrency: config.probePerHost,
  });
}

/** The client of catalog checks: the prober's address policy, time and body limits. */
function checkClient(config: Config, seams: Seams): GuardedClient {
  return new GuardedClient({
    policy: seams.policy ?? policyFor(config.probeAllowPrivate),
    resolver: seams.resolver,
    ca: seams.ca,
    userAgent: `Rollcall-Check/${config.version} (+${config.publicBaseUrl}/for-agents)`,
    connectTimeoutMs: config.probeConnectTimeoutMs,
    totalTimeoutMs: config.probeTimeoutMs,
    maxBodyBytes: config.probeMaxBodyBytes,
    perHostConcurrency: 2,
  });
}
