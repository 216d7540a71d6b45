// The first-touch draft (SPEC.md 2.8): the operator sends it, Rollcall never does, and it carries
// exactly two links, the demo link and one more. Names come from cards and files that others
// write: cleaned, emails and addresses masked, and any link in them removed, so a name can never
// add a third link.
import { cleanText } from '../listings/text.ts';
import { scrubPersonal } from '../feed/public.ts';
import type { Candidate } from './candidates.ts';

export interface Draft {
  subject: string;
  body: string;
  demo_link: string;
  /** The body's two links, demo link first. */
  links: [string, string];
}

/** Anything a mail client could turn into a link: scheme URLs and www. forms. */
const LINKISH = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S*/gi;

/** Partner-supplied text as it may appear in a draft. */
export const safeText = (text: string, max: number): string => scrubPersonal(cleanText(text, max).replace(LINKISH, '[link]')).trim() || 'there';

/** The two links: for a listing, its own demo and its status; otherwise the quickstart and how to list. */
export function draftLinks(base: string, c: Candidate): [string, string] {
  if (c.listing_id) {
    const id = encodeURIComponent(c.listing_id);
    return [`${base}/api/products/demo?listing_id=${id}`, `${base}/api/listings/status?id=${id}`];
  }
  return [`${base}/api/products/quickstart`, `${base}/llms.txt`];
}

export function draftFor(base: string, c: Candidate): Draft {
  const name = safeText(c.name, 80);
  const traits = c.traits.map((t) => safeText(t.trait, 40)).join(', ');
  const [demo, second] = draftLinks(base, c);
  const listed = c.listing_id !== null;
  const body = [
    `Hi ${name} team,`,
    '',
    `I run Rollcall, a registry that probes A2A agents and MCP servers for real before it lists them. ${name} looks like a partner we would like to work with (${traits}).`,
    '',
    listed
      ? `Your listing is Live with a live score of ${c.live_score}/10, and a free demo built from your own ${c.kind === 'agent' ? 'agent card' : 'tools'} is ready: ${demo}`
      : `You can try Rollcall's value tools free, without signing up: ${demo}`,
    '',
    listed ? `Your listing, its probe and what comes next: ${second}` : `Listing yourself takes one call: ${second}`,
    '',
    'If it is useful, one honest sentence back is all I ask.',
    '',
    'The Rollcall operator',
  ].join('\n');
  return { subject: `Rollcall x ${name}: ${listed ? 'your free demo is ready' : 'an introduction'}`, body, demo_link: demo, links: [demo, second] };
}
