// `/list`: list yourself. The form posts to the real publish API with JS (site.js), then polls
// /api/listings/status until the lane is active and shows the demo call to action. Without JS it
// posts here (with its form token, form-token.ts), runs the same operation and lands on the
// listing's page, which offers a Refresh status link while the probe runs. Once Live, the listing's
// own next_step says what to offer: the free demo, or (a listing that took it) the step after it.
import { z } from 'zod';
import { publish } from '../../registry/operations.ts';
import { html } from './html.ts';
import { codeBlock, layout, pageHead } from './layout.ts';
import { formToken, formTokenField } from './form-token.ts';
import type { PageCtx, PageResult } from './page.ts';

const form = z.object({ url: z.string(), name: z.string().optional(), contact_email: z.string().optional() });

/** The no-JS path: the form's fields (empty ones dropped) to publish; answers the listing id. */
export async function listSubmit(p: PageCtx, body: unknown): Promise<string> {
  const parsed = form.safeParse(body ?? {});
  const fields = parsed.success ? Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined && v.trim() !== '')) : {};
  const result = await p.run(publish, { ...fields, source: 'web' });
  return result.id;
}

export async function listPage(p: PageCtx, error?: string, status?: number): Promise<PageResult> {
  const token = formToken(p.request, p.base);
  const curl = `curl -s ${p.base}/api/publish \\\n  -H 'content-type: application/json' \\\n  -d '{"url": "https://your-server.example/mcp"}'`;
  const body = html`
${pageHead('List your agent or MCP server', 'Give Rollcall a card URL. It runs a real handshake, checks the card, scores it and lists it as Live when the checks are clean. Then the free demo and the founding deal are one step away.')}
<div class="grid">
<section class="panel" aria-labelledby="form-h">
  <h2 id="form-h">Your card URL</h2>
  ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
  <form class="stack" id="list-form" action="/list" method="post" data-publish>
    ${formTokenField(token)}
    <label>Card or server URL <span class="hint">An MCP server endpoint (streamable HTTP) or an A2A agent card (…/.well-known/agent-card.json).</span>
      <input name="url" type="url" required maxlength="2048" placeholder="https://your-server.example/mcp" autocomplete="url" inputmode="url"></label>
    <label>Name <span class="hint">Optional: used only when your card has none.</span>
      <input name="name" type="text" maxlength="120" autocomplete="off"></label>
    <label>Contact email <span class="hint">Optional, never shown publicly.</span>
      <input name="contact_email" type="email" maxlength="320" autocomplete="email"></label>
    <p><button class="primary" type="submit">List it</button></p>
  </form>
  <div id="list-status" class="status" role="status" aria-live="polite" hidden></div>
  <div id="list-live" hidden>
    <h3 id="live-h">It is Live.</h3>
    <p id="live-next">Take the free demo: your listing gets a demo made from its own card; real feedback after it takes a founding seat (the full product free, for the first 100).</p>
    <p class="actions"><a class="btn primary" id="demo-link" href="#">Take the free demo</a><a class="btn" id="listing-link" href="#">Your listing page</a></p>
    <pre class="wrap-text" id="demo-curl" tabindex="0" aria-label="The demo request with curl"></pre>
  </div>
</section>
<section class="panel" aria-labelledby="how-h">
  <h2 id="how-h">What happens</h2>
  <ol class="steps">
    <li><strong>Listed.</strong> The URL is normalized and becomes your listing's key.</li>
    <li><strong>Probed.</strong> MCP: <code>initialize</code> and <code>tools/list</code> (or <code>server/discover</code>). Agents: the card, then a JSON-RPC call to its endpoint.</li>
    <li><strong>Live.</strong> Clean checks and a real handshake put you in the active list and in search.</li>
    <li><strong>Claimed.</strong> Prove you control it (<code>claim_listing</code>: a file on the server, a DNS TXT record or the card, then <code>verify_claim</code>): its owner token acts for it.</li>
    <li><strong>Demo, feedback, seat.</strong> A free demo, one real sentence of feedback, a founding seat.</li>
  </ol>
  ${codeBlock('The same from a terminal', curl)}
</section>
</div>`;
  return { status, headers: { 'set-cookie': token.cookie }, html: layout({ title: 'List yours', path: '/list', description: 'List an A2A agent or MCP server on Rollcall: probed, scored, Live.', body }) };
}
