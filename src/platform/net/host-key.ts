// What counts as one host for politeness caps: an IP literal (whatever the port), else the
// registrable domain from the Public Suffix List (tldts bundles it; nothing is fetched), with
// private suffixes honoured so `alice.github.io` and `bob.github.io` are two hosts, while
// `a.example.org:8443` and `b.example.org` are one.
import { isIP } from 'node:net';
import { getDomain } from 'tldts';
import ipaddr from 'ipaddr.js';

export function hostKey(url: URL | string): string {
  const hostname = (typeof url === 'string' ? new URL(url) : url).hostname.toLowerCase();
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(host)) return host;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/**
 * Who owns a URL's host, for grants given once per owner: the ICANN registrable domain without
 * private suffixes (every `*.github.io` or `*.pages.dev` site is one owner, since anyone can make
 * one), an IPv4 literal as its address, an IPv6 literal as its /64 (one site's share of a network).
 */
export function ownerDomain(url: URL | string): string {
  const hostname = (typeof url === 'string' ? new URL(url) : url).hostname.toLowerCase();
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(host) === 4) return host;
  if (isIP(host) === 6) return ipv6Prefix64(host);
  return getDomain(host, { allowPrivateDomains: false }) ?? host;
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
