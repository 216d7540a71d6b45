// DNS-rebinding protection for the MCP endpoint (DESIGN.md "Safety rules"): Host and Origin must
// name the configured public host; when that host is a loopback name, every loopback name passes.
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

const bareHost = (host: string): string => {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon > 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
};

/** The configured host, parsed once per base URL (this runs on every MCP and A2A request). */
let parsedBase = { url: '', host: '' };
const configuredHost = (publicBaseUrl: string): string => {
  if (parsedBase.url !== publicBaseUrl) parsedBase = { url: publicBaseUrl, host: new URL(publicBaseUrl).hostname.toLowerCase() };
  return parsedBase.host;
};

export function hostAllowed(host: string | undefined, publicBaseUrl: string): boolean {
  if (!host) return false;
  const expected = configuredHost(publicBaseUrl);
  const given = bareHost(host);
  if (LOOPBACK.has(expected)) return LOOPBACK.has(given);
  return given === expected;
}

export function originAllowed(origin: string | undefined, publicBaseUrl: string): boolean {
  if (origin === undefined) return true; // non-browser clients send no Origin
  try {
    return hostAllowed(new URL(origin).host, publicBaseUrl);
  } catch {
    return false;
  }
}
