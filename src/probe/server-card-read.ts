// The MCP server card a Streamable HTTP remote serves at its reserved place, `<remote>/server-card`
// (MCP Server Cards, SEP-2127), read through the guarded client. What is kept is what a person
// compares with the catalog entry's own fields: name, title, version, description, website and
// repository, each cleaned as the entry's own fields are; anything else in the card is left unread,
// and an answer that is not JSON (by its media type) or not an object with a name is no card.
import { OutboundError, type Fetcher } from '../platform/net/guarded-client.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';

export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** What the catalog keeps of a remote's server card. */
export interface ServerCardSeen {
  url: string;
  name: string;
  title?: string;
  version?: string;
  description?: string;
  websiteUrl?: string;
  repository?: string;
}

const MAX_VERSION = 100;

/** `<remote>/server-card`: the path gains one segment, the query stays. */
export function serverCardUrl(remote: string): string {
  const u = new URL(remote);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/server-card`;
  return u.toString();
}

/** Control and invisible characters dropped, whitespace collapsed, cut to `max`: the entry's own rules. */
const text = (v: unknown, max: number) => (typeof v === 'string' ? cleanText(v, max) : '') || undefined;
const webUrl = (v: unknown) => {
  const s = typeof v === 'string' ? v.trim() : '';
  return s.length <= 2048 && /^https?:\/\//i.test(s) && URL.canParse(s) ? s : undefined;
};

/** The card's fields as kept, or undefined when the remote serves none (any status but 200, not JSON, no name). */
export function cardFields(url: string, doc: unknown): ServerCardSeen | undefined {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const d = doc as Record<string, unknown>;
  const name = text(d.name, MAX_NAME);
  if (!name) return undefined;
  const repository = typeof d.repository === 'object' && d.repository !== null ? webUrl((d.repository as Record<string, unknown>).url) : undefined;
  const fields: ServerCardSeen = { url, name };
  const title = text(d.title, MAX_NAME);
  const version = text(d.version, MAX_VERSION);
  const description = text(d.description, MAX_DESCRIPTION);
  const websiteUrl = webUrl(d.websiteUrl);
  return { ...fields, ...(title ? { title } : {}), ...(version ? { version } : {}), ...(description ? { description } : {}), ...(websiteUrl ? { websiteUrl } : {}), ...(repository ? { repository } : {}) };
}

/**
 * Reads the card of a live remote: null when it serves none, undefined when the host's budget had
 * no room for the read (what was known before stays).
 */
export async function readServerCard(client: Fetcher, remote: string): Promise<ServerCardSeen | null | undefined> {
  const url = serverCardUrl(remote);
  try {
    const res = await client.fetch(url, { headers: { accept: `${SERVER_CARD_MEDIA_TYPE}, application/json;q=0.9` } });
    const json = /^application\/([\w.+-]+\+)?json\b/i.test(res.headers['content-type'] ?? '');
    return res.status === 200 && json ? (cardFields(url, JSON.parse(res.text())) ?? null) : null;
  } catch (err) {
    if (err instanceof OutboundError && err.reason === 'host_budget') return undefined;
    return null; // unreachable, too large, not JSON: no card to show
  }
}
