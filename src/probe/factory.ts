// Builds the production prober from configuration: the guarded client with the configured
// address policy and limits, and an honest User-Agent.
import type { Config } from '../config.ts';
import { GuardedClient, type Resolver } from '../platform/net/guarded-client.ts';
import { policyFor, type AddressPolicy } from '../platform/net/address-policy.ts';
import { Prober } from './prober.ts';

export const probeUserAgent = (config: Config) => `Rollcall-Probe/${config.version} (+${config.publicBaseUrl}/for-agents)`;

/** Test seams are arguments (a resolver, a policy), never environment switches. */
export function createProber(config: Config, seams: { resolver?: Resolver; policy?: AddressPolicy } = {}): Prober {
  const client = new GuardedClient({
    policy: seams.policy ?? policyFor(config.probeAllowPrivate),
    resolver: seams.resolver,
    userAgent: probeUserAgent(config),
    connectTimeoutMs: config.probeConnectTimeoutMs,
    totalTimeoutMs: config.probeTimeoutMs,
    maxBodyBytes: config.probeMaxBodyBytes,
    perHostConcurrency: config.probePerHost,
  });
  return new Prober(client, config.probeAllowPrivate);
}
