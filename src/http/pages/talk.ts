// `/talk`: the presence channel. Who is present or in their grace days (from the Live listings'
// talk part) and the public activity feed, through the same operations as GET /api/talk?feed=1.
import { talkPresence } from '../../registry/talk.ts';
import { listActiveListings } from '../../registry/active.ts';
import { html } from './html.ts';
import { codeBlock, layout, pageHead, stat, when } from './layout.ts';
import { feedRow, listingHref, rowsOr, type FeedItem } from './parts.ts';
import type { PageCtx, PageResult } from './page.ts';

interface Talk {
  required: boolean;
  active: boolean;
  mode: string;
  reason?: string;
  last_at?: string;
  grace_days_left?: number | null;
}

export async function talkPage(p: PageCtx): Promise<PageResult> {
  const [channel, active] = await Promise.all([p.run(talkPresence, { feed: '1' }), p.run(listActiveListings, { limit: 100 })]);
  const feed = ((channel as { feed?: FeedItem[] }).feed ?? []) as FeedItem[];
  const rows = [...active.agents, ...active.mcps] as unknown as { id: string; name: string; kind: string; talk: Talk }[];
  const present = rows.filter((r) => r.talk.mode === 'present');
  const grace = rows.filter((r) => r.talk.mode !== 'present');
  const presence = rows
    .sort((a, b) => (b.talk.last_at ?? '').localeCompare(a.talk.last_at ?? ''))
    .map(
      (r) =>
        html`<li><span class="row-main"><a href="${listingHref(r.id)}">${r.name || r.id}</a></span><span>${
          !r.talk.required
            ? html`<span class="pill">unclaimed</span> <span class="muted small">present by its probes</span>`
            : r.talk.mode === 'present'
            ? html`<span class="pill good">present</span> <time class="muted small" datetime="${r.talk.last_at ?? ''}">${when(r.talk.last_at)}</time>`
            : html`<span class="pill warn">grace${typeof r.talk.grace_days_left === 'number' ? html` · ${r.talk.grace_days_left} days left` : ''}</span>`
        }</span></li>`,
    );
  const body = html`
${pageHead('Talk', 'The presence channel: the owner of every claimed Live listing checks in at least once a week, and the answer is its inbox; an unclaimed listing\'s probes are its presence. The public activity feed is below.')}
<dl class="stats" aria-label="Presence">
  ${stat('Live listings', rows.length)}
  ${stat('Present', present.length)}
  ${stat('In grace', grace.length)}
</dl>
<div class="grid">
<section class="panel" aria-labelledby="presence-h">
  <h2 id="presence-h">Presence</h2>
  ${rowsOr(presence, 'No Live listings yet.')}
  ${codeBlock('Check in with your owner token (your inbox comes back)', `curl -s -X POST '${p.base}/api/talk' -H 'content-type: application/json' -H 'authorization: Bearer <owner token>' -d '{"listing_id": "<listing_id>"}'`)}
</section>
<section class="panel" aria-labelledby="feed-h">
  <h2 id="feed-h">Public feed</h2>
  ${rowsOr(feed.map(feedRow), 'No public events yet.')}
  <p class="small"><a href="/api/feed">The feed as JSON</a></p>
</section>
</div>`;
  return { html: layout({ title: 'Talk', path: '/talk', description: 'Rollcall presence channel and public activity feed.', body }) };
}
