// Which addresses and ports outbound calls may reach (DESIGN.md "Safety rules"). Production
// allows only global unicast on ports 80/443; PROBE_ALLOW_PRIVATE=1 (development, tests) allows any.
import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  allowAddress(ip: string): boolean;
  allowPort(port: number): boolean;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Cloud providers' own services that answer inside their networks: metadata, DNS, time, agents.
 * Most sit in ranges refused anyway (169.254.169.254 and AWS ECS's 169.254.170.2 link-local,
 * Alibaba's 100.100.100.200 CGNAT, Oracle's legacy 192.0.0.192 reserved, AWS's fd00:ec2::/32 and
 * Google's fd20:ce::254 unique-local); they are listed so a change of those rules cannot reopen them.
 * Azure's WireServer, 168.63.129.16 (also its DNS and health probes), is an ordinary unicast
 * address: only this list refuses it.
 */
const PROVIDER_RESERVED = [
  '168.63.129.16/32',
  '169.254.169.254/32',
  '169.254.170.2/32',
  '100.100.100.200/32',
  '192.0.0.192/32',
  'fd00:ec2::/32',
  'fd20:ce::254/128',
].map((cidr) => ipaddr.parseCIDR(cidr));

const providerReserved = (addr: ipaddr.IPv4 | ipaddr.IPv6) => PROVIDER_RESERVED.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));

/**
 * True for a public unicast address. IPv4-mapped IPv6 is unwrapped first; NAT64 (64:ff9b::/96,
 * 64:ff9b:1::/48), 6to4, Teredo, documentation, private, link-local, loopback, CGNAT, multicast
 * and reserved ranges are refused because ipaddr.js names them something other than `unicast`;
 * IPv6 must also be inside 2000::/3, which excludes the deprecated IPv4-compatible ::/96 form.
 * Cloud providers' reserved service addresses are refused too (PROVIDER_RESERVED).
 */
export function isPublicAddress(ip: string): boolean {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(text)) return false;
  let addr = ipaddr.parse(text);
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) addr = v6.toIPv4Address();
    else if (!v6.match(GLOBAL_UNICAST_V6)) return false;
  }
  return addr.range() === 'unicast' && !providerReserved(addr);
}

export const publicOnlyPolicy: AddressPolicy = {
  allowAddress: isPublicAddress,
  allowPort: (port) => port === 80 || port === 443,
};

/** PROBE_ALLOW_PRIVATE=1: any valid address and port (never in production). */
export const allowPrivatePolicy: AddressPolicy = {
  allowAddress: (ip) => ipaddr.isValid(ip.replace(/^\[|\]$/g, '')),
  allowPort: () => true,
};

export const policyFor = (allowPrivate: boolean): AddressPolicy => (allowPrivate ? allowPrivatePolicy : publicOnlyPolicy);

/** Names that always mean this machine (RFC 6761), refused like a loopback address. */
const LOCAL_NAME = /(^|\.)localhost\.?$/i;

/**
 * Why the policy refuses to reach this URL before any lookup (a port it does not allow, an
 * address literal or a local name it refuses), or undefined. Names that resolve to refused
 * addresses are caught when dialing.
 */
export function refusal(url: URL, policy: AddressPolicy): string | undefined {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  if (!policy.allowPort(port)) return `port ${port} is not allowed: only 80 and 443 are probed`;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (ipaddr.isValid(host) && !policy.allowAddress(host)) return `${host} is not a public address`;
  if (LOCAL_NAME.test(host) && !policy.allowAddress('127.0.0.1')) return `${host} names this machine`;
  return undefined;
}
