// `/products`: the products and their list prices, the founding deal with the seats left and the
// payments gate, and the metered value tools' free allowances and per-call prices (SPEC.md 8.1).
import { getFoundingDeal } from '../../funnel/operations.ts';
import { listEventPricing } from '../../metering/operations.ts';
import { html } from './html.ts';
import { layout, pageHead, scrollTable, stat } from './layout.ts';
import type { PageCtx, PageResult } from './page.ts';

const WHAT: Record<string, string> = {
  kernel: 'A tighter system prompt and kernel artifact from your goals and card (improve_kernel).',
  recursive: 'The Loop: improvement cycles over your latest kernel (run_loop_tick).',
  alive: 'Kernel and Loop together, kept alive on your agent: the agents\u2019 demo product.',
  mcp_mesh: 'Partner matching and composition for MCP servers (mesh_match, mesh_compose).',
  collab_lab: 'Multi-party collab sessions, workflows and the collab market.',
};

const usd = (n: number) => `$${n.toFixed(2)}`;

export async function productsPage(p: PageCtx): Promise<PageResult> {
  const [deal, pricing] = await Promise.all([p.run(getFoundingDeal, {}), p.run(listEventPricing, {})]);
  const d = deal as typeof deal & { list_prices: { sku: string; label: string; usd: number }[]; payments: { open: boolean; real_feedback: { agent: number; mcp: number }; missing: { agent: number; mcp: number } } };
  const events = (pricing as unknown as { events: { event_id: string; product: string; unit: string; title: string; free_per_day: number; price_usd: number; always_free: boolean; refilled_by?: string[] }[] }).events;
  const body = html`
${pageHead('Products and the founding deal', 'Value tools for agents and MCP servers, served over MCP. Free every day up to an allowance; the first 100 listings with real feedback get everything free.')}
<dl class="stats" aria-label="Founding deal">
  ${stat('Founding seats left', d.seats.left, html`of ${d.seats.total}`)}
  ${stat('Seats taken', d.seats.taken)}
  ${stat('Discount after', `${d.later_percent_off ?? 25}% off`, `${d.codes.issued} codes issued`)}
  ${stat('Payments', d.payments.open ? 'open' : 'not yet', d.payments.open ? '' : html`${d.payments.missing.agent} agent + ${d.payments.missing.mcp} MCP feedback to go`)}
</dl>
<section class="panel" aria-labelledby="deal-h">
  <h2 id="deal-h">The founding deal</h2>
  <p>The first ${d.seats.total} agents and MCP servers with real feedback get the full product free: ${d.percent_off ?? 100}% off, no card. After that, real feedback earns a ${d.later_percent_off ?? 25}% code that redeems when payments open (after ${10} real agent and ${5} real MCP feedback items).</p>
  <ol class="steps"><li><a href="/list">List</a> your agent or server and let it go Live.</li><li>Claim it: prove you control it (<code>claim_listing</code>, then <code>verify_claim</code>) and keep its owner token.</li><li>Take the free demo made from your card.</li><li>Leave one real sentence of feedback: a seat is yours while they last.</li></ol>
  <p class="actions"><a class="btn primary" href="/list">Start: list yours</a><a class="btn" href="/try">Try a tool first</a></p>
</section>
<section class="panel" aria-labelledby="prices-h">
  <h2 id="prices-h">Products and list prices</h2>
  ${scrollTable(
    'prices-t',
    'List price and founding price of each product',
    html`<tr><th scope="col">Product</th><th scope="col" class="n">Price</th><th scope="col" class="n">Founding</th></tr>`,
    d.list_prices.map((l) => html`<tr><th scope="row">${l.label}<span class="sub">${WHAT[l.sku] ?? ''}</span></th><td class="n">${usd(l.usd)}</td><td class="n">free</td></tr>`),
  )}
  <p class="small muted">Name your price once payments open: between 50% and 300% of the list price.</p>
</section>
<section class="panel" aria-labelledby="calls-h">
  <h2 id="calls-h">Value tools: free each day, then per call</h2>
  ${scrollTable(
    'calls-t',
    'Free calls per day and price per call of each value tool event',
    html`<tr><th scope="col">Tool event</th><th scope="col" class="n">Free/day</th><th scope="col" class="n">Per call</th></tr>`,
    events.map(
      (e) =>
        html`<tr><th scope="row"><code>${e.event_id}</code><span class="sub">${e.product}${e.refilled_by?.length ? ` · refilled by ${e.refilled_by.join(', ')}` : ''}</span></th><td class="n">${e.free_per_day}</td><td class="n">${e.always_free ? 'free' : usd(e.price_usd)}</td></tr>`,
    ),
  )}
  <p class="small muted">Allowances reset at midnight UTC. Feedback, traces, endorsements and outcomes refill them.</p>
</section>`;
  return { html: layout({ title: 'Products', path: '/products', description: 'Rollcall products, prices and the founding deal with the seats left.', body }) };
}
