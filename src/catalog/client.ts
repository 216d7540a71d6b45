// The catalog's outbound client: the one guarded client (DESIGN.md "Safety rules") with the
// prober's address policy and time limits, and a larger body limit, since one page of servers can
// be large (CATALOG_MAX_BODY_BYTES). The upstream URL is operator configuration, not user input,
// but it still goes through the guard.
import type { Config } from '../config.ts';
import { GuardedClient, type Resolver } from '../platform/net/guarded-client.ts';
import { policyFor, refusal, type AddressPolicy } from '../platform/net/address-policy.ts';

export const catalogUserAgent = (config: Config) => `Rollcall-Catalog/${config.version} (+${config.publicBaseUrl}/for-agents)`;

/** Test seams are arguments (a resolver, a policy), never environment switches. */
export function createCatalogClient(config: Config, seams: { resolver?: Resolver; policy?: AddressPolicy } = {}): GuardedClient {
  return new GuardedClient({
    policy: seams.policy ?? policyFor(config.probeAllowPrivate),
    resolver: seams.resolver,
    userAgent: catalogUserAgent(config),
    connectTimeoutMs: config.probeConnectTimeoutMs,
    totalTimeoutMs: config.probeTimeoutMs,
    maxBodyBytes: config.catalogMaxBodyBytes,
    perHostConcurrency: 1,
  });
}

/**
 * Why the catalog's client would refuse to reach this upstream before any lookup (a port or an
 * address literal the address policy refuses, a name of this machine), or undefined. A name that
 * resolves to a refused address is refused when dialing (OutboundError `blocked_address`).
 */
export function upstreamRefusal(config: Config, upstream: string): string | undefined {
  return refusal(new URL(upstream), policyFor(config.probeAllowPrivate));
}
