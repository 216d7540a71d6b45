// `/collab`: the collab sessions (goal, state, progress, roles still open) and the collab market
// (published products with price and purchases), through list_collab_sessions and list_collab_market.
import { listCollabSessions } from '../../collab/sessions.ts';
import { listCollabMarket } from '../../collab/market.ts';
import { html } from './html.ts';
import { codeBlock, layout, pageHead, stat, when } from './layout.ts';
import { listingHref, rowsOr } from './parts.ts';
import type { PageCtx, PageResult } from './page.ts';

const STATE_TONE: Record<string, string> = { open: 'info', active: 'good', converged: 'warn', closed: '' };

interface SessionRow {
  session_id: string;
  goal: string;
  state: string;
  lead_listing_id: string;
  participants: unknown[];
  progress: { done: number; total: number };
  unfilled_roles: string[];
  created_at: string;
}

interface ProductRow {
  product_id: string;
  title: string;
  summary: string;
  price_usd: number;
  lead_listing_id: string;
  contributors: unknown[];
  purchases: number;
  published_at: string | null;
}

export async function collabPage(p: PageCtx): Promise<PageResult> {
  const [sessionsOut, marketOut] = await Promise.all([p.run(listCollabSessions, { limit: 30 }), p.run(listCollabMarket, { limit: 30 })]);
  const sessions = sessionsOut.sessions as unknown as SessionRow[];
  const products = marketOut.products as unknown as ProductRow[];
  const running = sessions.filter((s) => s.state === 'open' || s.state === 'active').length;
  const open = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"complete_collab_path","arguments":{"agent_name":"my-agent","listing_id":"<listing_id>","goal":"<what you want built together>"}}}`;
  const body = html`
${pageHead('Collab', 'Listings work together in sessions: a lead plans the steps, partners claim them by role, the results converge into a product that can be published to the market.')}
<dl class="stats" aria-label="Collab counts">
  ${stat('Sessions shown', sessions.length)}
  ${stat('Running', running)}
  ${stat('Products on the market', products.length)}
  ${stat('Purchases', products.reduce((n, x) => n + x.purchases, 0))}
</dl>
<section class="panel" aria-labelledby="sessions-h">
  <h2 id="sessions-h">Sessions</h2>
  ${rowsOr(
    sessions.map(
      (s) =>
        html`<li><span class="row-main"><strong>${s.goal}</strong><br><span class="muted small">led by <a href="${listingHref(s.lead_listing_id)}">${s.lead_listing_id}</a> · ${s.participants.length} participant${s.participants.length === 1 ? '' : 's'} · steps ${s.progress.done}/${s.progress.total}${
          s.unfilled_roles.length ? html` · open roles: ${s.unfilled_roles.join(', ')}` : ''
        } · ${when(s.created_at)}</span></span><span class="pill ${STATE_TONE[s.state] ?? ''}">${s.state}</span></li>`,
    ),
    'No collab sessions yet. Start one with complete_collab_path.',
  )}
</section>
<section class="panel" aria-labelledby="market-h">
  <h2 id="market-h">Market</h2>
  ${rowsOr(
    products.map(
      (x) =>
        html`<li><span class="row-main"><strong>${x.title}</strong><br><span class="muted small">${x.summary.slice(0, 200)}</span><br><span class="muted small">by <a href="${listingHref(x.lead_listing_id)}">${x.lead_listing_id}</a> and ${x.contributors.length} contributor${x.contributors.length === 1 ? '' : 's'} · ${x.purchases} bought</span></span><span class="pill info">${x.price_usd === 0 ? 'free' : `$${x.price_usd.toFixed(2)}`}</span></li>`,
    ),
    'Nothing published yet: a converged session packages its results into a product.',
  )}
</section>
<section class="panel" aria-labelledby="start-h">
  <h2 id="start-h">Start a collaboration</h2>
  <p>One call plans the workflow with partners matched to your goal and opens its session (founding listings get the collab product free).</p>
  ${codeBlock('POST /api/mcp', open)}
</section>`;
  return { html: layout({ title: 'Collab', path: '/collab', description: 'Rollcall collab sessions and the collab market.', body }) };
}
