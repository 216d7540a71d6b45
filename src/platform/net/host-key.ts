// What counts as one host for politeness caps, one owner for what is given once per owner, and one
// group of owners for what one operator could otherwise take many times over. An IP literal
// (whatever the port), else the registrable domain from the Public Suffix List (tldts bundles it;
// nothing is fetched), with private suffixes honoured so `alice.github.io` and `bob.github.io` are
// two hosts and two owners (of one group), while `a.example.org:8443` and `b.example.org` are one.
import { isIP } from 'node:net';
import { getDomain } from 'tldts';
import ipaddr from 'ipaddr.js';

const bareHost = (url: URL | string): string => {
  const hostname = (typeof url === 'string' ? new URL(url) : url).hostname.toLowerCase();
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
};

export function hostKey(url: URL | string): string {
  const host = bareHost(url);
  if (isIP(host)) return host;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/**
 * Who owns a URL's host (docs/decisions/owner-domain.md): the registrable domain by the whole
 * Public Suffix List, private section included, so each tenant of shared hosting (`alice.github.io`,
 * `bob.vercel.app`) is an owner of its own, as it is a host of its own; an IPv4 literal is its
 * address, an IPv6 literal its /64 (one site's share of a network).
 */
export function ownerDomain(url: URL | string): string {
  const host = bareHost(url);
  if (isIP(host) === 4) return host;
  if (isIP(host) === 6) return ipv6Prefix64(host);
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/**
 * The owners that one operator can make many of for free, together: every tenant of a private
 * suffix under one ICANN registrable domain (all of `*.github.io`; `*.s3.amazonaws.com` with every
 * other suffix of amazonaws.com), and an IPv6 /48 (a site's usual assignment, 65,536 /64s). Scarce
 * things (founding seats, the payments gate, rank-moving marks) are bounded per group as well as
 * per owner domain. An ICANN registrable domain and an IPv4 address (each costs money) are their
 * own group.
 */
export function ownerGroup(domain: string): string {
  if (isIP(domain) === 4) return domain;
  const v6 = domain.endsWith('/64') ? domain.slice(0, -3) : domain;
  if (isIP(v6) === 6) {
    const parts = (ipaddr.parse(v6) as ipaddr.IPv6).parts.slice(0, 3).concat([0, 0, 0, 0, 0]);
    return `${new ipaddr.IPv6(parts).toString()}/48`;
  }
  return getDomain(domain, { allowPrivateDomains: false }) ?? domain;
}

/** An IPv6 address's /64 (`2001:db8:1:2::/64`); an IPv4-mapped one is its IPv4 address. */
export function ipv6Prefix64(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}
