// Small pieces several pages show: a lane as a pill, a listing as a row, a feed event, a search hit,
// a server's tools and what they cost an agent's context.
import { html, type Html } from './html.ts';
import { scrollTable, stat, when } from './layout.ts';
import type { ToolShown } from '../../registry/page-reads.ts';
import type { ContextCost } from '../../catalog/context-cost.ts';

const LANE: Record<string, { word: string; tone: string }> = {
  active: { word: 'Live', tone: 'good' },
  queued: { word: 'queued', tone: 'info' },
  probing: { word: 'probing', tone: 'info' },
  failed: { word: 'failed', tone: 'bad' },
  dormant: { word: 'dormant', tone: 'warn' },
};

export const lanePill = (lane: string) => {
  const l = LANE[lane] ?? { word: lane, tone: '' };
  return html`<span class="pill ${l.tone}">${l.word}</span>`;
};

/** Text cut at a word boundary with an ellipsis. */
export const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max).replace(/\s+\S*$/, '')}…`);

export const kindWord = (kind: string) => (kind === 'agent' ? 'A2A agent' : 'MCP server');

export const listingHref = (id: string) => `/l/${encodeURIComponent(id)}`;

/** A catalog server's page (site.js builds the same): its name's slash stays a path separator. */
export const catalogHref = (server: string) => `/c/${server.split('/').map(encodeURIComponent).join('/')}`;

export interface ListingLike {
  id: string;
  name: string;
  kind: string;
  lane: string;
  description?: string;
  probe?: { score: number | null };
}

export const listingRow = (l: ListingLike) =>
  html`<li><span class="row-main"><a href="${listingHref(l.id)}">${l.name || l.id}</a> <span class="muted small">${kindWord(l.kind)}</span>${
    l.description ? html`<br><span class="muted small">${clip(l.description, 140)}</span>` : ''
  }</span><span>${l.probe?.score !== null && l.probe?.score !== undefined ? html`<span class="pill">score ${l.probe.score}</span> ` : ''}${lanePill(l.lane)}</span></li>`;

const EVENT_WORD: Record<string, string> = {
  // A submission: its probe decides whether it is listed (went Live) or failed.
  'listing.listed': 'was submitted',
  'listing.claimed': 'was claimed by its owner',
  'listing.live': 'went Live',
  'demo.taken': 'took the free demo',
  'feedback.left': 'left feedback',
};

/** A catalog remote's status as a person reads it in the feed. */
const STATUS_WORD: Record<string, string> = { live: 'live', auth_required: 'behind a login', dead: 'dead', not_mcp: 'not MCP', refused: 'refused' };

/** An event of the public feed: about a listing, or about a catalog server (one of its remotes changed status). */
export interface FeedItem {
  seq: number;
  at: string;
  event: string;
  listing?: { id: string; kind: string; name: string; lane: string };
  catalog?: { name: string; entries: number };
  score?: number;
  rating?: number;
  from?: string;
  to?: string;
}

const statusWord = (status: string | undefined) => (status ? (STATUS_WORD[status] ?? status) : '');

function feedSubject(e: FeedItem): Html {
  if (e.catalog) {
    return html`a remote of <a href="${catalogHref(e.catalog.name)}">${e.catalog.name}</a> is now ${statusWord(e.to)} <span class="muted small">(was ${statusWord(e.from)})</span>`;
  }
  const l = e.listing!;
  // The event says what happened then; a listing that is not Live now says where it stands, so a
  // failed one never reads as listed.
  return html`<a href="${listingHref(l.id)}">${l.name || l.id}</a> ${EVENT_WORD[e.event] ?? e.event}${l.lane !== 'active' ? html` ${lanePill(l.lane)}` : ''}`;
}

export const feedRow = (e: FeedItem) =>
  html`<li><span class="row-main">${feedSubject(e)}${typeof e.score === 'number' ? html` <span class="pill">score ${e.score}</span>` : ''}${
    typeof e.rating === 'number' ? html` <span class="pill">${e.rating}/5</span>` : ''
  }</span><time class="muted small" datetime="${e.at}">${when(e.at)}</time></li>`;

export function rowsOr(items: readonly Html[], empty: string): Html {
  return items.length ? html`<ul class="rows">${items}</ul>` : html`<p class="empty-note">${empty}</p>`;
}

export interface HitLike {
  identifier: string;
  kind: string;
  source: string;
  name: string;
  description: string;
  listing_id?: string;
  /** A catalog hit's server name. */
  server?: string;
  trust: { probe_score: number | null; card_signature?: CardSignatureShown } | null;
}

type CardSignatureShown = 'valid' | 'invalid' | 'unsigned' | null;

/** Words for whether an agent's card is signed and its signature holds (null: not an agent card, or not read yet). */
export const CARD_SIGNATURE_WORDS: Record<'valid' | 'invalid' | 'unsigned', string> = {
  valid: 'signed, signature verifies',
  invalid: 'signed, signature does not verify',
  unsigned: 'not signed',
};

/** A pill for a signed card (a valid signature is good news, a failing one a warning); nothing for an unsigned one. */
export const cardSignaturePill = (status: CardSignatureShown | undefined) =>
  status === 'valid' ? html`<span class="pill good">signed card</span>` : status === 'invalid' ? html`<span class="pill bad">card signature fails</span>` : '';

/** Where a hit's name links: a Live listing's page, a catalog entry's page. */
const hitHref = (h: HitLike) => (h.listing_id ? listingHref(h.listing_id) : h.server ? catalogHref(h.server) : undefined);

export const hitRow = (h: HitLike) => {
  const href = hitHref(h);
  return html`<li><span class="row-main">${href ? html`<a href="${href}">${h.name}</a>` : html`<strong>${h.name}</strong>`} <span class="muted small">${kindWord(h.kind)} · ${
    h.source === 'listing' ? 'Live listing' : 'catalog'
  }</span><br><span class="muted small">${clip(h.description, 160)}</span></span>${h.trust?.probe_score != null ? html`<span class="pill">score ${h.trust.probe_score}</span>` : ''}${cardSignaturePill(h.trust?.card_signature)}</li>`;
};

/** A server's tools (an agent's skills: `noun` Skill): name, what it does, its parameters; `empty` when there are none to show. */
export function toolsTable(tools: readonly ToolShown[], caption: string, empty: string, noun = 'Tool'): Html {
  if (!tools.length) return html`<p class="muted">${empty}</p>`;
  return scrollTable(
    'tools',
    caption,
    html`<tr><th scope="col">${noun}</th><th scope="col">What it does</th><th scope="col">Parameters</th></tr>`,
    tools.map(
      (t) =>
        html`<tr><td><code>${t.name}</code></td><td>${t.description ?? ''}</td><td>${
          t.params.length
            ? t.params.map((pa) => html`<code>${pa.name}</code>${pa.type ? html` <span class="muted small">${pa.type}</span>` : ''}${pa.required ? html` <span class="small">required</span>` : ''}${pa.description ? html`: ${pa.description}` : ''}<br>`)
            : html`<span class="muted">none</span>`
        }</td></tr>`,
    ),
  );
}

/** The context-cost figure of a stats row: tokens for the tool list, named as an estimate. */
export const contextCostStat = (cost: ContextCost | null | undefined) =>
  stat('Context cost', cost?.tokens_estimate != null ? `≈${cost.tokens_estimate}` : '—', cost?.truncated ? 'tokens at least: the list ran past the size limit' : 'tokens for its tool list (bytes / 4, an estimate)');
