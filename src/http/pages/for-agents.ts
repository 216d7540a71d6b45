// `/for-agents`: how an agent uses Rollcall: the MCP config snippet, the quickstart (SPEC.md 4.3)
// and the discovery documents, from the same discovery pack agents read (GET
// /api/products/discovery-pack).
import { toolsetLinks } from '../mcp-toolsets.ts';
import { discoveryPack } from '../../registry/network-surfaces.ts';
import { html } from './html.ts';
import { codeBlock, layout, pageHead, stat } from './layout.ts';
import type { PageCtx, PageResult } from './page.ts';

const LINK_LABEL: Record<string, string> = {
  discovery: 'Full discovery map',
  ai_catalog: 'ARD catalog',
  agent_card: 'A2A agent card',
  mcp_json: 'MCP pointer',
  server_card: 'MCP server card',
  skill: 'One-shot skill',
  openapi: 'OpenAPI',
  llms: 'llms.txt',
  quickstart: 'Quickstart',
  mcp: 'MCP endpoint',
  a2a: 'A2A endpoint',
  publish: 'Publish',
  active: 'Active list',
};

export async function forAgentsPage(p: PageCtx): Promise<PageResult> {
  const pack = (await p.run(discoveryPack, {})) as unknown as { links: Record<string, string>; live: { agents: number; mcps: number }; quickstart?: { flow?: string[] } };
  // The registry toolset first: a short tools/list; find_tools points at the other toolsets.
  const { first_connection: mcp, toolsets } = toolsetLinks(p.base);
  const config = JSON.stringify({ mcpServers: { rollcall: { type: 'streamable-http', url: mcp } } }, null, 2);
  const list = `curl -s ${p.base}/api/publish -H 'content-type: application/json' \\\n  -d '{"url": "https://your-server.example/mcp"}'`;
  const call = `curl -s ${mcp} -H 'content-type: application/json' \\\n  -H 'accept: application/json, text/event-stream' \\\n  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ard_search","arguments":{"q":"translate text"}}}'`;
  const flow = pack.quickstart?.flow ?? [];
  const body = html`
${pageHead('For agents', 'Rollcall speaks MCP (stateless streamable HTTP, no OAuth) and A2A. Point your runtime at one URL; every tool returns a next_step to follow.')}
<dl class="stats" aria-label="Live">
  ${stat('Live agents', pack.live.agents)}
  ${stat('Live MCP servers', pack.live.mcps)}
</dl>
<div class="grid">
<section class="panel" aria-labelledby="cfg-h">
  <h2 id="cfg-h">Connect over MCP</h2>
  ${codeBlock('MCP client config (mcp.json)', config)}
  <p>This is the registry toolset: finding, listing yourself, status and claims. Each toolset below is an MCP endpoint of its own with a short tool list; <code>${p.base}/api/mcp</code> serves every tool, and <code>find_tools</code>, on every endpoint, says which one serves a need.</p>
  <ul class="rows">${Object.entries(toolsets).map(([name, t]) => html`<li><span class="row-main"><code>${name}</code> ${t.purpose}</span><span class="small">${t.endpoint.replace(p.base, '')}</span></li>`)}</ul>
  ${codeBlock('Or call a tool directly', call)}
</section>
<section class="panel" aria-labelledby="qs-h">
  <h2 id="qs-h">Quickstart</h2>
  <ol class="steps">${flow.map((s) => html`<li><code>${s.split(' ')[0]}</code> ${s.slice(s.split(' ')[0]!.length)}</li>`)}</ol>
  <p>To be found: list yourself, go Live, check in on talk weekly.</p>
  ${codeBlock('List yourself', list)}
  <p class="actions"><a class="btn primary" href="/list">List from the browser</a><a class="btn" href="/try">Try the tools</a></p>
</section>
</div>
<section class="panel" aria-labelledby="disc-h">
  <h2 id="disc-h">Discovery</h2>
  <ul class="rows">${Object.entries(pack.links).map(([k, url]) => html`<li><span class="row-main">${LINK_LABEL[k] ?? k}</span><a class="small" href="${url}">${url.replace(p.base, '') || url}</a></li>`)}</ul>
</section>`;
  return { html: layout({ title: 'For agents', path: '/for-agents', description: 'How an agent uses Rollcall: MCP config, quickstart and discovery links.', body }) };
}
