// What the badges say (SPEC.md 4.1 /badge/{mcp, agent, listed, clean, verified, live}): a read
// model of the facts each badge shows, from the domains that own them (listing lane and kind,
// probe checks and score, funnel seat, identity binding), and the text and colour made of them.
// The door (http/badges.ts) draws the SVG; snippets for embedding a listing's badge are here too.
import type { Executor } from '../platform/db/executor.ts';
import { countActive, findListingById, type Lane } from '../listings/store.ts';
import { cleanText } from '../listings/text.ts';
import { countProbed, loadProbeState } from '../probe/store.ts';
import { countFoundingVerified, loadFunnel } from '../funnel/store.ts';
import { countBindings, findBinding } from '../identity/store.ts';

export const BADGE_NAMES = ['mcp', 'agent', 'listed', 'clean', 'verified', 'live'] as const;
export type BadgeName = (typeof BADGE_NAMES)[number];

/** A badge's two halves and its colour (a shields.io colour name). */
export interface BadgeText {
  label: string;
  message: string;
  color: string;
}

export interface RegistryBadgeFacts {
  live: { agent: number; mcp: number };
  probed: number;
  clean: number;
  founding: number;
  bound: number;
}

export interface ListingBadgeFacts {
  kind: 'agent' | 'mcp';
  name: string;
  lane: Lane;
  probed: boolean;
  checksClean: boolean;
  score: number | null;
  founding: boolean;
  bound: boolean;
}

export async function registryBadgeFacts(ex: Executor): Promise<RegistryBadgeFacts> {
  const [live, probed, founding, bound] = await Promise.all([countActive(ex), countProbed(ex), countFoundingVerified(ex), countBindings(ex)]);
  return { live, probed: probed.probed, clean: probed.clean, founding, bound };
}

/** undefined when no listing has this id (a deleted one's included). */
export async function listingBadgeFacts(ex: Executor, id: string): Promise<ListingBadgeFacts | undefined> {
  const row = await findListingById(ex, id);
  if (!row || row.deleted_at !== null) return undefined;
  const [probe, funnel, binding] = await Promise.all([loadProbeState(ex, id), loadFunnel(ex, [id]), findBinding(ex, id)]);
  return {
    kind: row.kind,
    name: row.name,
    lane: row.lane,
    probed: Boolean(probe?.probed_at),
    checksClean: probe?.checks_clean === 1,
    score: probe?.score ?? null,
    founding: funnel.get(id)?.founding_verified === true,
    bound: Boolean(binding),
  };
}

const LANE_WORD: Record<Lane, string> = { active: 'live', queued: 'queued', probing: 'probing', failed: 'failed', dormant: 'dormant' };
const LANE_COLOR: Record<Lane, string> = { active: 'brightgreen', queued: 'blue', probing: 'blue', failed: 'red', dormant: 'orange' };
const KIND_WORD = { mcp: 'MCP server', agent: 'A2A agent' } as const;
/** A listing's name as a badge label: its own text, shortened (the SVG escapes it). */
const BADGE_NAME_MAX = 40;

const some = (n: number, color = 'brightgreen') => (n > 0 ? color : 'lightgrey');

/** The registry-wide badge (no `?id=`). */
export function registryBadge(badge: BadgeName, f: RegistryBadgeFacts): BadgeText {
  const live = f.live.agent + f.live.mcp;
  switch (badge) {
    case 'mcp':
      return { label: 'MCP servers', message: `${f.live.mcp} live`, color: some(f.live.mcp) };
    case 'agent':
      return { label: 'agents', message: `${f.live.agent} live`, color: some(f.live.agent) };
    case 'listed':
      return { label: 'listed on', message: 'Rollcall', color: 'blue' };
    case 'clean':
      return { label: 'checks clean', message: `${f.clean} of ${f.probed} probed`, color: some(f.clean) };
    case 'verified':
      return { label: 'verified', message: `${f.founding} founding · ${f.bound} signed`, color: some(f.founding + f.bound) };
    case 'live':
      return { label: 'live on Rollcall', message: `${live} listings`, color: some(live) };
  }
}

/** A listing's badge; undefined when the badge does not apply (an mcp badge for an agent). */
export function listingBadge(badge: BadgeName, f: ListingBadgeFacts): BadgeText | undefined {
  switch (badge) {
    case 'mcp':
    case 'agent':
      if (f.kind !== badge) return undefined;
      return { label: cleanText(f.name, BADGE_NAME_MAX) || KIND_WORD[f.kind], message: `${KIND_WORD[f.kind]} · ${LANE_WORD[f.lane]}`, color: LANE_COLOR[f.lane] };
    case 'listed':
      return { label: 'listed on Rollcall', message: LANE_WORD[f.lane], color: LANE_COLOR[f.lane] };
    case 'clean':
      if (!f.probed) return { label: 'checks', message: 'pending', color: 'lightgrey' };
      return f.checksClean ? { label: 'checks', message: 'clean', color: 'brightgreen' } : { label: 'checks', message: 'not clean', color: 'red' };
    case 'verified': {
      const parts = [...(f.founding ? ['founding'] : []), ...(f.bound ? ['signed key'] : [])];
      return { label: 'verified', message: parts.length ? parts.join(' · ') : 'no', color: parts.length ? 'brightgreen' : 'lightgrey' };
    }
    case 'live':
      if (f.lane !== 'active') return { label: 'Rollcall live', message: `no · ${LANE_WORD[f.lane]}`, color: LANE_COLOR[f.lane] };
      return { label: 'Rollcall live', message: f.score === null ? 'yes' : `yes · score ${f.score}`, color: 'brightgreen' };
  }
}

/** What an unknown id (or a badge that does not apply to it) shows. */
export const notFoundBadge = (badge: BadgeName): BadgeText => ({ label: badge === 'mcp' ? 'MCP server' : badge === 'agent' ? 'agent' : 'Rollcall', message: 'not found', color: 'lightgrey' });

const ALT: Record<BadgeName, string> = {
  mcp: 'MCP server on Rollcall',
  agent: 'A2A agent on Rollcall',
  listed: 'Listed on Rollcall',
  clean: 'Rollcall checks',
  verified: 'Rollcall verified',
  live: 'Live on Rollcall',
};

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Markdown and HTML that embed a listing's badge, linking to its page (`/l/<listing_id>`). The
 * alt text is fixed: the listing's own name never goes into the publisher's README markup.
 */
export function badgeSnippet(base: string, listingId: string, badge: BadgeName = 'live') {
  const id = encodeURIComponent(listingId);
  const image = `${base}/badge/${badge}?id=${id}`;
  const link = `${base}/l/${id}`;
  return {
    image,
    link,
    markdown: `[![${ALT[badge]}](${image})](${link})`,
    html: `<a href="${attr(link)}"><img src="${attr(image)}" alt="${ALT[badge]}"></a>`,
  };
}

/**
 * The Live badge of a listing as the status answer carries it: image, link and Markdown. The
 * status is polled, so the other badges (`/badge/<name>?id=`) and the HTML snippet are on the
 * listing's page and in docs/guide/pages-and-badges.md rather than in every poll.
 */
export function listingBadges(base: string, listing: { id: string }) {
  const { image, link, markdown } = badgeSnippet(base, listing.id, 'live');
  return { image, link, markdown };
}
