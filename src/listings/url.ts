// Listing identity (DESIGN.md "Listing identity"): the submitted URL, normalized, is the unique key.
import { badRequest } from '../platform/errors.ts';

export const MAX_URL_LENGTH = 2048;

/**
 * Scheme and host lower-cased, IDN to punycode, default port and fragment dropped, path and
 * query kept as given. WHATWG URL parsing does the first three; we drop the fragment.
 */
export function normalizeListingUrl(raw: string, field = 'url'): string {
  const text = raw.trim();
  if (text.length === 0) throw badRequest('invalid_url', `${field} must not be empty`, field);
  if (text.length > MAX_URL_LENGTH) {
    throw badRequest('invalid_url', `${field} is longer than ${MAX_URL_LENGTH} characters`, field);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest('invalid_url', `${field} is not an absolute URL`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest('invalid_url', `${field} must use http or https`, field);
  }
  // A URL carrying a password would be stored and shown: refuse it rather than leak it.
  if (url.username || url.password) {
    throw badRequest('invalid_url', `${field} must not contain credentials`, field);
  }
  url.hash = '';
  const normalized = url.toString();
  if (normalized.length > MAX_URL_LENGTH) {
    throw badRequest('invalid_url', `${field} is longer than ${MAX_URL_LENGTH} characters`, field);
  }
  return normalized;
}

/** Publish-time guess; the probe settles it (a card first, then the MCP handshake). */
export function guessKind(url: string, agentCardUrlGiven: boolean): 'agent' | 'mcp' {
  if (agentCardUrlGiven) return 'agent';
  const path = new URL(url).pathname.toLowerCase();
  return path.endsWith('agent.json') || path.endsWith('agent-card.json') ? 'agent' : 'mcp';
}
