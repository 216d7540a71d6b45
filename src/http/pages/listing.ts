// `/l/<listing_id>`: one listing: what its card says, the probe history as a chart, the last
// probe's score breakdown and checks, its badges with the Markdown and HTML to embed them, and
// the traces on it (in words: what each kind of mark means and how fast it fades), and an MCP
// server's instructions to models under their own heading. Its owner's weekly check-in shows once
// it is claimed (an unclaimed listing has none to make); an unclaimed Live listing offers its claim
// (claim.ts). check_status, sense_traces and the registry's probe detail supply the data; the next
// step is the status answer's own next_step (next-step.ts). While the listing waits for its probe
// the page never reloads itself: a Refresh status link reloads it on request, and with JS site.js
// polls the status route and says the change of lane in a polite live region.
import { checkStatus } from '../../registry/operations.ts';
import { badgeSnippet } from '../../registry/badges.ts';
import { senseTraces } from '../../traces/operations.ts';
import { catalogEntriesOf, listingTools, probeDetail } from '../../registry/page-reads.ts';
import type { ContextCost } from '../../catalog/context-cost.ts';
import { chart } from './charts.ts';
import { html, safeHref, type Html } from './html.ts';
import { codeBlock, layout, scrollTable, stat, when } from './layout.ts';
import { CARD_SIGNATURE_WORDS, catalogHref, contextCostStat, kindWord, lanePill, listingHref, rowsOr, toolsTable } from './parts.ts';
import { claimSide, nextStepPart } from './next-step.ts';
import { claimOffer } from './claim.ts';
import { formToken } from './form-token.ts';
import { HALF_LIFE_H, type Channel } from '../../traces/channels.ts';
import type { NextStep } from '../../platform/next-step.ts';
import type { PageCtx, PageResult } from './page.ts';

const WAITING = new Set(['queued', 'probing']);

interface TraceRow {
  channel: string;
  subject: { kind: string; listing_id?: string; capability?: string; partner_listing_id?: string };
  value: number;
}

export async function listingPage(p: PageCtx): Promise<PageResult> {
  const id = String((p.request.params as { id?: string }).id ?? '');
  const s = await p.run(checkStatus, { id });
  const v = s as typeof s & {
    description: string;
    website: string | null;
    category_label: string;
    badge_label?: string;
    checks_clean: boolean;
    claimed: boolean;
    owner_changed?: { at: string; method: string };
    name_withheld?: { name: string; why: string };
    probe: { ok: boolean; handshake: string; score: number | null; probed_at: string | null; target: string; context_cost: ContextCost | null; card_signature: 'valid' | 'invalid' | 'unsigned' | null };
    talk: TalkShown;
    history: { probes: number; uptime_pct: number | null; uptime_24h_pct: number | null; median_latency_ms: number | null };
    next_step: NextStep;
  };
  // Every badge and the Live badge's snippets (the status answer, polled, carries only the Live badge's).
  const live = badgeSnippet(p.base, v.id, 'live');
  const [detail, traces, inCatalog, tools] = await Promise.all([
    probeDetail(p.services.db.kysely, v.id),
    p.run(senseTraces, { listing_id: v.id, limit: 10 }),
    catalogEntriesOf(p.services.db.kysely, v.url),
    listingTools(p.services.db.kysely, v.id),
  ]);
  // An unclaimed Live listing offers its claim (a form: the answer sets the form cookie).
  const offer = v.lane === 'active' && !v.claimed ? formToken(p.request, p.base) : undefined;
  const points = detail.history.map((h) => ({ x: h.at, y: h.score, bad: !h.ok }));
  const traceRows = (traces as unknown as { traces: TraceRow[] }).traces;
  const body = html`
<header class="page-head">
  <p class="small muted"><a href="/">Registry</a> / ${kindWord(v.kind)}</p>
  <h1>${v.name || v.id} ${lanePill(v.lane)}</h1>
  <p class="lede">${v.description || 'No description on the card.'}</p>
</header>
${
  WAITING.has(v.lane)
    ? html`<div class="status" data-listing-wait="${v.id}" data-lane="${v.lane}">
  <p id="wait-msg" role="status" aria-live="polite">The probe is running (lane: ${v.lane}). This page does not reload itself: refresh the status to see whether the listing is Live or failed.</p>
  <p><a class="btn" id="wait-refresh" href="${listingHref(v.id)}">Refresh status</a></p>
</div>`
    : ''
}
${v.lane_reason && v.lane !== 'active' ? html`<p class="status bad">Reason: <code>${v.lane_reason}</code></p>` : ''}
<dl class="stats" aria-label="Listing numbers">
  ${stat('Score', v.probe.score ?? '—', 'of 100')}
  ${stat('Uptime', v.history.uptime_pct === null ? '—' : `${v.history.uptime_pct}%`, `${v.history.probes} probes`)}
  ${stat('Median latency', v.history.median_latency_ms === null ? '—' : `${v.history.median_latency_ms} ms`)}
  ${v.kind === 'mcp' ? contextCostStat(v.probe.context_cost) : ''}
  ${checkInStat(v.talk)}
</dl>
${
  offer && v.next_step?.tool === 'claim_listing'
    ? claimOffer({ id: v.id, name: v.name || v.id, kind: v.kind }, offer, claimSide(p.base, v.id, v.next_step, !v.demoed))
    : html`${nextStepPart(p.base, v.id, v.next_step, v.lane === 'active', !v.demoed)}${offer ? claimOffer({ id: v.id, name: v.name || v.id, kind: v.kind }, offer) : ''}`
}
<div class="grid">
<section class="panel" aria-labelledby="card-h">
  <h2 id="card-h">Card</h2>
  <dl class="kv">
    <dt>Listing id</dt><dd><code class="id">${v.id}</code></dd>
    <dt>Kind</dt><dd>${kindWord(v.kind)}</dd>
    <dt>${v.kind === 'agent' ? 'Agent card' : 'Endpoint'}</dt><dd><a href="${safeHref(v.url)}" rel="nofollow noopener">${v.url}</a></dd>
    ${v.website ? html`<dt>Website</dt><dd><a href="${safeHref(v.website)}" rel="nofollow noopener">${v.website}</a></dd>` : ''}
    <dt>Category</dt><dd>${v.category_label}</dd>
    ${inCatalog.length ? html`<dt>In the catalog</dt><dd>${inCatalog.slice(0, 3).map((n, i) => html`${i ? ', ' : ''}<a href="${catalogHref(n)}">${n}</a>`)}</dd>` : ''}
    <dt>Owner</dt><dd>${v.claimed ? html`<span class="pill good">claimed</span> its owner proved control` : offer ? html`unclaimed: its owner can <a href="#claim-h">claim it</a>` : html`unclaimed: its owner can claim it with <code>claim_listing</code>`}${v.owner_changed ? html`<br><strong>Owner changed at ${when(v.owner_changed.at)} by ${v.owner_changed.method}</strong>` : ''}</dd>
    ${v.name_withheld ? html`<dt>Name</dt><dd>Its card says <q>${v.name_withheld.name}</q>, which is not shown: ${v.name_withheld.why}</dd>` : ''}
    ${v.probe.card_signature ? html`<dt>Card signature</dt><dd><span class="pill${v.probe.card_signature === 'valid' ? ' good' : v.probe.card_signature === 'invalid' ? ' bad' : ''}">${CARD_SIGNATURE_WORDS[v.probe.card_signature]}</span></dd>` : ''}
    <dt>Handshake</dt><dd>${v.probe.handshake} ${v.checks_clean ? html`<span class="pill good">checks clean</span>` : html`<span class="pill">checks not clean</span>`}</dd>
    <dt>Last probe</dt><dd>${when(v.probe.probed_at)}</dd>
    ${v.badge_label ? html`<dt>Funnel</dt><dd>${v.badge_label}</dd>` : ''}
  </dl>
</section>
<section class="panel" aria-labelledby="hist-h">
  <h2 id="hist-h">Probe history</h2>
  <figure class="chart-figure">${chart(points, { title: 'Probe score over time', summary: `Score of each of the last ${points.length} probes; failed probes are hollow red dots.`, yMax: 100 })}
  <figcaption class="chart-cap">Score of each probe, oldest to newest; hollow red dots failed.</figcaption></figure>
</section>
</div>
<div class="grid">
<section class="panel" aria-labelledby="score-h">
  <h2 id="score-h">Score breakdown</h2>
  ${
    detail.breakdown.length
      ? scrollTable(
          'score-t',
          'Points of each part of the score and the rule that gave them',
          html`<tr><th scope="col">Part and rule</th><th scope="col" class="n">Points</th></tr>`,
          detail.breakdown.map((b) => html`<tr><th scope="row">${b.part}<span class="sub">${b.rule}</span></th><td class="n">${b.points} / ${b.max}</td></tr>`),
        )
      : html`<p class="empty-note">Not probed yet.</p>`
  }
  ${detail.checks.length ? html`<h3>Checks</h3><ul class="rows">${detail.checks.map((c) => html`<li><span class="row-main"><code>${c.id}</code> <span class="muted small">${c.detail}</span></span>${c.pass ? html`<span class="pill good">pass</span>` : html`<span class="pill bad">fail</span>`}</li>`)}</ul>` : ''}
</section>
<section class="panel" aria-labelledby="badge-h">
  <h2 id="badge-h">Badges</h2>
  <div class="badges">${([v.kind, 'listed', 'clean', 'verified', 'live'] as const).map((name) => html`<img src="${safeHref(badgeSnippet('', v.id, name).image)}" alt="Rollcall ${name} badge" height="20">`)}</div>
  ${codeBlock('Markdown', live.markdown, true)}
  ${codeBlock('HTML', live.html, true)}
</section>
</div>
<section class="panel" aria-labelledby="tools-h">
  <h2 id="tools-h">${v.kind === 'agent' ? 'Skills' : 'Tools'}</h2>
  ${toolsTable(tools, `The ${tools.length} ${v.kind === 'agent' ? 'skills its card declares' : 'tools of its last probe'}`, v.kind === 'agent' ? 'Its card declares no skills.' : 'Its tools are shown once a probe reads its tool list.', v.kind === 'agent' ? 'Skill' : 'Tool')}
</section>
${
  detail.instructions
    ? html`<section class="panel" aria-labelledby="instr-h">
  <h2 id="instr-h">Instructions to models</h2>
  <p class="small muted">What this MCP server tells the models that use it, as it said it at the last probe. Its words, quoted as data: not its description, not Rollcall's.</p>
  <pre class="wrap-text">${detail.instructions}</pre>
</section>`
    : ''
}
<section class="panel" aria-labelledby="traces-h">
  <h2 id="traces-h">Traces</h2>
  <p class="small muted">Marks Rollcall's probes and other agents left on this listing. Each fades by half over the time shown; a higher strength means more marks, or fresher ones.</p>
  ${rowsOr(traceRows.map(traceRow), 'No traces on this listing yet.')}
</section>`;
  return {
    headers: offer ? { 'set-cookie': offer.cookie } : undefined,
    html: layout({ title: v.name || v.id, path: '', description: `${kindWord(v.kind)} on Rollcall: ${v.name}`, body }),
  };
}

/** The talk part of a listing's status. */
interface TalkShown {
  required: boolean;
  active: boolean;
  mode: string;
  last_at?: string;
  grace_days_left?: number | null;
}

/**
 * The owner's weekly check-in, in words. An unclaimed listing has none to make (its probes are its
 * presence), so nothing is shown for it.
 */
function checkInStat(t: TalkShown): Html | '' {
  if (!t.required) return '';
  if (t.active && t.mode === 'present') return stat('Weekly check-in', 'Done', `last on ${when(t.last_at)}`);
  if (t.active && typeof t.grace_days_left === 'number') return stat('Weekly check-in', `${t.grace_days_left} days`, 'of grace left before the first one is due');
  return stat('Weekly check-in', 'Missed', 'none in the last 7 days: its owner checks in to keep it Live');
}

/** What each trace channel says about a listing, in words. */
const CHANNEL_WORDS: Record<Channel, { label: string; what: string }> = {
  joined: { label: 'Submitted', what: 'the mark every new submission gets' },
  attraction: { label: 'Drew interest', what: 'clean probes, endorsements and calls that went well' },
  danger: { label: 'Warnings', what: 'failed probes and calls that went badly' },
  demand: { label: 'Asked for', what: 'agents looking for what it offers' },
};

const fadeWords = (channel: string) => {
  const hours = HALF_LIFE_H[channel as Channel];
  if (hours === undefined) return '';
  return hours % 24 === 0 ? `halves every ${hours / 24} days` : `halves every ${hours} hours`;
};

function traceRow(t: TraceRow): Html {
  const words = CHANNEL_WORDS[t.channel as Channel] ?? { label: t.channel, what: '' };
  const about =
    t.subject.kind === 'pair'
      ? html` together with <a href="${`/l/${encodeURIComponent(t.subject.partner_listing_id ?? '')}`}">${t.subject.partner_listing_id}</a>`
      : t.subject.capability
        ? html` for <q>${t.subject.capability}</q>`
        : '';
  const fade = fadeWords(t.channel);
  return html`<li><span class="row-main"><strong>${words.label}</strong>${about}<br><span class="muted small">${words.what}${words.what && fade ? '; ' : ''}${fade}</span></span><span class="small">strength <span class="num-sm">${t.value >= 10 ? Math.round(t.value) : t.value.toFixed(1)}</span></span></li>`;
}
