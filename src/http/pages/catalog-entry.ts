// `/c/<server name>`: one server of the catalog for people: what it is, its remotes and packages,
// each remote's status now with its latency and status history, its tools when live (name,
// description, parameters) and what they cost an agent's context, and how its owner claims it.
// The registry API's own answer (get_catalog_server_version) supplies the entry and its measured
// health; the check history and tools come from the registry's page reads.
import { getCatalogServerVersion } from '../../registry/catalog-view.ts';
import { remoteCheckDetail } from '../../registry/page-reads.ts';
import { remotesOf } from '../../catalog/remote-health.ts';
import type { RemoteHealth } from '../../registry/remote-health-view.ts';
import { chart } from './charts.ts';
import { html, safeHref } from './html.ts';
import { codeBlock, layout, scrollTable, stat, when } from './layout.ts';
import { contextCostStat, toolsTable } from './parts.ts';
import type { PageCtx, PageResult } from './page.ts';

const STATUS: Record<string, { word: string; tone: string; says: string }> = {
  live: { word: 'live', tone: 'good', says: 'answered its last check' },
  auth_required: { word: 'behind a login', tone: 'info', says: 'alive, and asks for authorization' },
  dead: { word: 'dead', tone: 'bad', says: 'unreachable, timed out or failing with 5xx' },
  not_mcp: { word: 'not MCP', tone: 'bad', says: 'answers, but not as an MCP server' },
  refused: { word: 'refused', tone: 'bad', says: 'an address Rollcall does not reach' },
  unchecked: { word: 'not checked yet', tone: 'info', says: 'waits for its first check' },
  not_checkable: { word: 'not checkable', tone: '', says: 'a URL template or headers its users must supply' },
  not_remote: { word: 'no remote', tone: '', says: 'runs as a local package only' },
};

const statusPill = (status: string) => {
  const s = STATUS[status] ?? { word: status, tone: '' };
  return html`<span class="pill ${s.tone}">${s.word}</span>`;
};

type Item = {
  server: { name: string; title?: string; description: string; version: string; websiteUrl?: string; repository?: { url?: string }; packages?: { registryType?: string; identifier?: string; version?: string }[] };
  _meta: Record<string, { status?: string; remotes?: RemoteHealth[]; description?: string; listing?: { listing_id: string } }>;
};

const CARD_FIELDS = [
  ['name', 'Name'],
  ['title', 'Title'],
  ['version', 'Version'],
  ['description', 'Description'],
  ['websiteUrl', 'Website'],
  ['repository', 'Repository'],
] as const;

/** What the server's own card says, each field marked where it differs from the entry's. */
function serverCardPanel(card: Record<string, string>, server: Item['server'], description: string) {
  const entry: Record<string, string | undefined> = { name: server.name, title: server.title, version: server.version, description, websiteUrl: server.websiteUrl, repository: server.repository?.url };
  return html`<section class="panel" aria-labelledby="card-h">
  <h2 id="card-h">Server card</h2>
  <p class="small muted">What the server says of itself at <a href="${safeHref(card.url ?? '')}" rel="nofollow noopener">its server card</a>, read at its last live check.</p>
  <dl class="kv">${CARD_FIELDS.filter(([k]) => card[k]).map(
    ([k, label]) => html`<dt>${label}</dt><dd>${k === 'websiteUrl' || k === 'repository' ? html`<a href="${safeHref(card[k]!)}" rel="nofollow noopener">${card[k]}</a>` : k === 'name' ? html`<code>${card[k]}</code>` : card[k]}${entry[k] !== undefined && entry[k] !== card[k] ? html` <span class="pill">differs from the entry</span>` : ''}</dd>`,
  )}</dl>
</section>`;
}

export async function catalogEntryPage(p: PageCtx): Promise<PageResult> {
  const name = String((p.request.params as { '*'?: string })['*'] ?? '');
  const item = (await p.run(getCatalogServerVersion, { name, version: 'latest' })) as unknown as Item;
  const ours = item._meta[p.services.config.registryMetaKey] ?? {};
  const { server } = item;
  const remotes = ours.remotes ?? [];
  const keys = new Map(remotesOf(server as unknown as Record<string, unknown>).map((r) => [r.url, r.key]));
  const details = await Promise.all(remotes.map((r) => (keys.get(r.url) ? remoteCheckDetail(p.services.db.kysely, keys.get(r.url)!) : Promise.resolve(undefined))));
  const liveAt = remotes.findIndex((r) => r.status === 'live');
  const live = liveAt >= 0 ? remotes[liveAt] : undefined;
  const tools = liveAt >= 0 ? (details[liveAt]?.tools ?? []) : [];
  const status = ours.status ?? 'unchecked';
  const description = ours.description ?? server.description;
  const claimable = remotes.find((r) => r.status !== 'not_checkable');
  // The card of a remote that answers now, else the last one read.
  const card = (remotes.find((r) => r.status === 'live' && r.server_card) ?? remotes.find((r) => r.server_card))?.server_card ?? undefined;
  const body = html`
<header class="page-head">
  <p class="small muted"><a href="/">Registry</a> / catalog</p>
  <h1>${server.title || server.name} ${statusPill(status)}</h1>
  <p class="lede">${description}</p>
</header>
<dl class="stats" aria-label="Catalog entry numbers">
  ${stat('Status', STATUS[status]?.word ?? status, STATUS[status]?.says ?? '')}
  ${stat('Tools', live?.tools ? live.tools.count : '—', live?.tools?.truncated ? 'a list past the size limit, counted to it' : live ? 'in its tool list' : 'known once it answers')}
  ${contextCostStat(live?.tools)}
  ${stat('Latency', live?.latency_ms != null ? `${live.latency_ms} ms` : '—', live ? `checked ${when(live.last_verified)}` : '')}
</dl>
<div class="grid">
<section class="panel" aria-labelledby="entry-h">
  <h2 id="entry-h">Entry</h2>
  <dl class="kv">
    <dt>Name</dt><dd><code>${server.name}</code></dd>
    <dt>Version</dt><dd>${server.version}</dd>
    ${server.websiteUrl ? html`<dt>Website</dt><dd><a href="${safeHref(server.websiteUrl)}" rel="nofollow noopener">${server.websiteUrl}</a></dd>` : ''}
    ${server.repository?.url ? html`<dt>Repository</dt><dd><a href="${safeHref(server.repository.url)}" rel="nofollow noopener">${server.repository.url}</a></dd>` : ''}
    ${ours.listing ? html`<dt>Listing</dt><dd><a href="/l/${encodeURIComponent(ours.listing.listing_id)}">Live on Rollcall</a></dd>` : ''}
    <dt>Record</dt><dd><a href="/v0.1/servers/${encodeURIComponent(server.name)}/versions/latest">registry API (JSON)</a></dd>
  </dl>
</section>
${card ? serverCardPanel(card, server, description) : ''}
<section class="panel" aria-labelledby="packages-h">
  <h2 id="packages-h">Packages</h2>
  ${
    server.packages?.length
      ? html`<ul class="rows">${server.packages.map((pk) => html`<li><span class="row-main"><code>${pk.identifier ?? ''}</code> <span class="muted small">${pk.registryType ?? ''}${pk.version ? ` ${pk.version}` : ''}</span></span></li>`)}</ul>`
      : html`<p class="muted">No package: it runs as a remote only.</p>`
  }
</section>
</div>
<section class="panel" aria-labelledby="remotes-h">
  <h2 id="remotes-h">Remotes</h2>
  ${
    remotes.length
      ? scrollTable(
          'remotes',
          'Each remote and its last check',
          html`<tr><th scope="col">URL</th><th scope="col">Transport</th><th scope="col">Status</th><th scope="col">Checked</th><th scope="col">Next check</th></tr>`,
          remotes.map(
            (r) =>
              html`<tr><td><code>${r.url}</code></td><td>${r.type}</td><td>${statusPill(r.status)}${r.not_checkable_reason ? html` <span class="small muted">${r.not_checkable_reason.replace('_', ' ')}</span>` : ''}</td><td>${when(r.last_verified)}</td><td>${when(r.next_check_at)}</td></tr>`,
          ),
        )
      : html`<p class="muted">No remote: this server runs on its users' machines, from its packages.</p>`
  }
  ${remotes.map((r, i) => {
    const history = details[i]?.history ?? [];
    if (!history.length) return '';
    const points = history.map((h) => ({ x: h.at, y: h.latency_ms ?? 0, bad: h.status !== 'live' }));
    return html`<figure class="chart-figure">${chart(points, { title: `Latency of ${r.url} (ms)`, summary: `Latency in milliseconds of each of the last ${points.length} checks; checks that did not answer are hollow red dots.` })}
  <figcaption class="chart-cap">Latency of ${r.url} in milliseconds, each check oldest to newest; hollow red dots did not answer.</figcaption></figure>`;
  })}
</section>
<section class="panel" aria-labelledby="tools-h">
  <h2 id="tools-h">Tools</h2>
  ${toolsTable(tools, `The ${tools.length} tools of its last live check`, 'Its tools are shown once a remote answers a check.')}
</section>
<section class="panel" aria-labelledby="claim-h">
  <h2 id="claim-h">Is this your server?</h2>
  ${
    claimable
      ? html`<p>Claim its remote to make it a listing of yours: Rollcall probes it, scores it and, once you prove control, it is yours to describe. Call <code>claim_listing</code> on the MCP endpoint with its URL:</p>
  ${codeBlock('claim_listing', JSON.stringify({ url: claimable.url }))}`
      : html`<p class="muted">It has no remote Rollcall can reach by URL, so there is nothing to claim here; list a server you run with <a href="/list">the list form</a>.</p>`
  }
</section>`;
  return { html: layout({ title: server.title || server.name, path: '', description: `MCP server in the Rollcall catalog: ${server.name}`, body }) };
}
