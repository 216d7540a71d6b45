// What counts as one host for politeness caps: an IP literal (whatever the port), else the
// registrable domain from the Public Suffix List (tldts bundles it; nothing is fetched), with
// private suffixes honoured so `alice.github.io` and `bob.github.io` are two hosts, while
// `a.example.org:8443` and `b.example.org` are one.
import { isIP } from 'node:net';
import { getDomain } from 'tldts';

export function hostKey(url: URL | string): string {
  const hostname = (typeof url === 'string' ? new URL(url) : url).hostname.toLowerCase();
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(host)) return host;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}
