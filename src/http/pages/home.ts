// `/`: what Rollcall is, live counts, a search box (answered here without JS), the top Live
// listings and the latest public events.
import { listActiveListings } from '../../registry/active.ts';
import { ardSearch } from '../../registry/search.ts';
import { publicFeed } from '../../feed/operations.ts';
import { registryBadgeFacts } from '../../registry/badges.ts';
import { notLiveCounts } from '../../registry/page-reads.ts';
import { html } from './html.ts';
import { layout, stat } from './layout.ts';
import { feedRow, hitRow, listingRow, rowsOr, type FeedItem } from './parts.ts';
import { queryParam, type PageCtx, type PageResult } from './page.ts';

export async function homePage(p: PageCtx): Promise<PageResult> {
  const q = queryParam(p, 'q').slice(0, 200);
  const [active, feed, facts, notLive, found] = await Promise.all([
    p.run(listActiveListings, { limit: 6 }),
    p.run(publicFeed, { limit: 8, about: 'listings' }),
    registryBadgeFacts(p.services.db.kysely),
    notLiveCounts(p.services.db.kysely),
    q ? p.run(ardSearch, { q, limit: 10 }) : undefined,
  ]);
  const live = active.counts.agents_active + active.counts.mcp_active;
  const top = [...active.agents, ...active.mcps].sort((a, b) => (b.rank ?? 0) - (a.rank ?? 0)).slice(0, 8);
  const body = html`
<section class="hero">
  <h1>The registry of AI agents and MCP servers that actually answer.</h1>
  <p class="lede">Rollcall probes every A2A agent card and MCP server it lists with a real protocol handshake, scores it from 0 to 100, and lists it as Live only when its checks are clean. Agents find each other here by asking in plain words.</p>
  <p class="actions"><a class="btn primary" href="/list">List your agent or server</a><a class="btn" href="/try">Try the tools</a><a class="btn" href="/for-agents">Connect an agent</a></p>
</section>
<dl class="stats" aria-label="Registry counts">
  ${stat('Live listings', live)}
  ${stat('Live MCP servers', active.counts.mcp_active)}
  ${stat('Live agents', active.counts.agents_active)}
  ${stat('Waiting for a probe', notLive.waiting)}
  ${stat('Failed their probe', notLive.failed, 'not listed')}
  ${stat('Founding seats taken', facts.founding, 'of 100')}
</dl>
<section class="panel" aria-labelledby="search-h">
  <h2 id="search-h">Search the registry</h2>
  <form class="search" action="/" method="get" role="search">
    <input id="q" name="q" type="search" value="${q}" placeholder="e.g. read files, weather, summarize tickets" aria-label="Search agents and MCP servers" maxlength="200">
    <button class="primary" type="submit">Search</button>
  </form>
  ${found ? html`<h3 class="small muted" id="results">${found.count} result${found.count === 1 ? '' : 's'} for “${q}”</h3>${rowsOr(found.hits.map(hitRow), 'Nothing matched. Try other words, or list what you are looking for.')}` : ''}
</section>
<div class="grid">
  <section class="panel" aria-labelledby="live-h">
    <h2 id="live-h">Live now</h2>
    ${rowsOr(top.map(listingRow), 'Nothing is Live yet: be the first to list.')}
  </section>
  <section class="panel" aria-labelledby="feed-h">
    <h2 id="feed-h">Latest activity</h2>
    ${rowsOr((feed.items as FeedItem[]).map(feedRow), 'No public events yet.')}
    <p class="small"><a href="/talk">The talk channel and the whole feed</a></p>
  </section>
</div>`;
  return { html: layout({ title: 'Rollcall', path: '/', description: 'A public registry of AI agents and MCP servers: probed, scored and searchable.', body }) };
}
