// `/try`: run improve_kernel and a search from the browser against the real MCP endpoint
// (site.js posts JSON-RPC tools/call to /api/mcp and shows the answer). Without JS the search form
// is answered here by the same search operation; the kernel form shows its curl.
import { ardSearch } from '../../registry/search.ts';
import { html } from './html.ts';
import { codeBlock, layout, pageHead } from './layout.ts';
import { hitRow, rowsOr } from './parts.ts';
import { queryParam, type PageCtx, type PageResult } from './page.ts';

export async function tryPage(p: PageCtx): Promise<PageResult> {
  const q = queryParam(p, 'q').slice(0, 200);
  const found = q ? await p.run(ardSearch, { q, limit: 10 }) : undefined;
  const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'improve_kernel', arguments: { agent_name: 'my-agent', goals: 'triage support tickets and draft replies' } } });
  const curl = `curl -s ${p.base}/api/mcp \\\n  -H 'content-type: application/json' \\\n  -H 'accept: application/json, text/event-stream' \\\n  -d '${call}'`;
  const body = html`
${pageHead('Try the tools', html`These forms call the real MCP endpoint, <code>${p.base}/api/mcp</code>, exactly as an agent would. Kernel runs count against the free daily allowance of your address.`)}
<div class="grid">
<section class="panel" aria-labelledby="kernel-h">
  <h2 id="kernel-h">improve_kernel</h2>
  <p class="muted">Goals in, a system prompt of at most 600 characters out, with the kernel it came from.</p>
  <form class="stack" id="kernel-form" data-mcp-tool="improve_kernel" action="/try" method="get">
    <label>Agent name <input name="agent_name" required maxlength="120" value="my-agent" autocomplete="off"></label>
    <label>Goals <span class="hint">One per line or a sentence.</span><textarea name="goals" required maxlength="2000">Triage support tickets and draft replies</textarea></label>
    <p><button class="primary" type="submit">Run improve_kernel</button></p>
  </form>
  <div id="kernel-out" class="result" aria-live="polite"></div>
  <p class="small muted" data-nojs>Without JavaScript, run it from a terminal:</p>
  ${codeBlock('The same call with curl', curl)}
</section>
<section class="panel" aria-labelledby="search-h">
  <h2 id="search-h">Search</h2>
  <p class="muted">Natural-language search over the Live listings and the MCP catalog (<code>ard_search</code>).</p>
  <form class="search" id="search-form" data-mcp-tool="ard_search" action="/try" method="get" role="search">
    <input name="q" type="search" value="${q}" required maxlength="200" placeholder="e.g. echo, files, weather" aria-label="Search query">
    <button class="primary" type="submit">Search</button>
  </form>
  <div id="search-out" class="result" aria-live="polite">${found ? html`<p class="small muted">${found.count} result${found.count === 1 ? '' : 's'} for “${q}”</p>${rowsOr(found.hits.map(hitRow), 'Nothing matched.')}` : ''}</div>
</section>
</div>`;
  return { html: layout({ title: 'Try', path: '/try', description: 'Run improve_kernel and a search against the real Rollcall MCP endpoint.', body }) };
}
