// Builds the production prober from configuration: the guarded client with the configured
// address policy and limits, and an honest User-Agent.
import type { Config } from '../config.ts';
import { GuardedClient, tableResolver, type Resolver } from '../platform/net/guarded-client.ts';
import { policyFor, type AddressPolicy } from '../platform/net/address-policy.ts';
import { Prober } from './prober.ts';
import { OffThreadProber } from './off-thread.ts';

export const probeUserAgent = (config: Config) => `Rollcall-Probe/${config.version} (+${config.publicBaseUrl}/for-agents)`;

/** Test seams are arguments (a resolver, a policy), never environment switches. */
export function createProber(config: Config, seams: { resolver?: Resolver; policy?: AddressPolicy; ca?: string } = {}): Prober {
  return new Prober(guardedClient(config, seams), config.probeAllowPrivate);
}

/**
 * The service's prober: its probes run on a thread of their own (off-thread.ts). A test seam must
 * cross to that thread, so it is a plain table of host names (the thread's resolver knows only
 * them), not a function.
 */
export function createServiceProber(config: Config, options: { hosts?: Record<string, string[]>; onLost?: (err: Error) => void } = {}): OffThreadProber {
  const resolver = options.hosts ? tableResolver(options.hosts) : undefined;
  return new OffThreadProber(guardedClient(config, { resolver }), config.probeAllowPrivate, { config, hosts: options.hosts }, options.onLost);
}

function guardedClient(config: Config, seams: { resolver?: Resolver; policy?: AddressPolicy; ca?: string }): GuardedClient {
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
