// The MCP server card a Streamable HTTP remote serves at its reserved place, `<remote>/server-card`
// (MCP Server Cards, SEP-2127), read through the guarded client. What is kept is what a person
// compares with the catalog entry's own fields: name, title, version, description, website and
// repository, each a short string; anything else in the card, and any card that is not a JSON
// object with a name, is left unread.
import { OutboundError, type Fetcher } from '../platform/net/guarded-client.ts';

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

const LIMITS = { name: 200, title: 200, version: 100, description: 1000, websiteUrl: 2048, repository: 2048 } as const;

/** `<remote>/server-card`: the path gains one segment, the query stays. */
export function serverCardUrl(remote: string): string {
  const u = new URL(remote);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/server-card`;
  return u.toString();
}

const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined);
const webUrl = (v: unknown) => {
  const s = text(v, 2048);
  return s && /^https?:\/\//i.test(s) && URL.canParse(s) ? s : undefined;
};

/** The card's fields as kept, or undefined when the remote serves none (any status but 200, not JSON, no name). */
export function cardFields(url: string, doc: unknown): ServerCardSeen | undefined {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const d = doc as Record<string, unknown>;
  const name = text(d.name, LIMITS.name);
  if (!name) return undefined;
  const repository = typeof d.repository === 'object' && d.repository !== null ? webUrl((d.repository as Record<string, unknown>).url) : undefined;
  const fields: ServerCardSeen = { url, name };
  const title = text(d.title, LIMITS.title);
  const version = text(d.version, LIMITS.version);
  const description = text(d.description, LIMITS.description);
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
    return res.status === 200 ? (cardFields(url, JSON.parse(res.text())) ?? null) : null;
  } catch (err) {
    if (err instanceof OutboundError && err.reason === 'host_budget') return undefined;
    return null; // unreachable, too large, not JSON: no card to show
  }
}
