// `/connectors`: the connector playbook's pick of the day (one outreach partner per UTC day, with
// why and the draft the operator sends) and the history of picks, through connector_daily.
import { connectorDaily } from '../../connectors/operations.ts';
import { html } from './html.ts';
import { layout, pageHead, scrollTable, stat, when } from './layout.ts';
import { rowsOr } from './parts.ts';
import type { PageCtx, PageResult } from './page.ts';

interface Today {
  day: string;
  partner: { id: string; name: string; kind: string; role?: string; status?: string } | null;
  hirey_likeness: number;
  traits: unknown[];
  why: string;
  action: { step: string; do_not?: string[]; draft?: { subject: string; body: string; demo_link?: string } | null };
  queue_after: { id: string; name: string; score: number }[];
}

interface History {
  day: string;
  partner_id: string | null;
  partner_name: string | null;
  hirey_likeness: number;
  status: string;
  prepped_at: string | null;
}

const traitWord = (t: unknown) => (typeof t === 'string' ? t : t && typeof t === 'object' && 'trait' in t ? String((t as { trait: unknown }).trait) : '');

export async function connectorsPage(p: PageCtx): Promise<PageResult> {
  const out = (await p.run(connectorDaily, {})) as unknown as { today: Today; history: History[]; laws?: string[]; prep?: { already: boolean } };
  const t = out.today;
  const draft = t.action?.draft;
  const body = html`
${pageHead('Connectors', 'One warm first touch a day: Rollcall picks the partner that looks most like an ideal partner and is Live and healthy, and drafts the note. The operator sends it; Rollcall never does.')}
<dl class="stats" aria-label="Today">
  ${stat('Day (UTC)', t.day)}
  ${stat('Likeness', t.hirey_likeness, 'gate 14')}
  ${stat('Picks so far', out.history.length)}
</dl>
<div class="grid">
<section class="panel" aria-labelledby="today-h">
  <h2 id="today-h">Today's pick</h2>
  ${
    t.partner
      ? html`<p><strong>${t.partner.name}</strong> <span class="muted small">${t.partner.kind}${t.partner.role ? ` · ${t.partner.role}` : ''}</span> ${out.prep?.already ? html`<span class="pill good">prepared</span>` : html`<span class="pill info">to prepare</span>`}</p>`
      : html`<p><span class="pill warn">research day</span> No candidate passes the quality gate today.</p>`
  }
  <p>${t.why}</p>
  ${t.traits?.length ? html`<p class="small">Traits: ${t.traits.map(traitWord).filter(Boolean).join(', ')}</p>` : ''}
  <p class="small muted">${t.action?.step ?? ''}</p>
  ${draft ? html`<h3>Draft</h3><p><strong>${draft.subject}</strong></p><pre class="wrap-text" tabindex="0">${draft.body}</pre>` : ''}
</section>
<section class="panel" aria-labelledby="queue-h">
  <h2 id="queue-h">Next in line</h2>
  ${rowsOr(t.queue_after.map((q) => html`<li><span class="row-main">${q.name}</span><span class="pill">${q.score}</span></li>`), 'Nobody else in the queue.')}
  ${out.laws?.length ? html`<h3>Rules</h3><ul class="small">${out.laws.map((l) => html`<li>${l}</li>`)}</ul>` : ''}
</section>
</div>
<section class="panel" aria-labelledby="hist-h">
  <h2 id="hist-h">History</h2>
  ${scrollTable(
    'hist-t',
    'Connector picks by UTC day',
    html`<tr><th scope="col">UTC day</th><th scope="col">Partner</th><th scope="col" class="n">Likeness</th><th scope="col">Status</th><th scope="col">Prepared</th></tr>`,
    out.history.length
      ? out.history.map((h) => html`<tr><th scope="row">${h.day}</th><td>${h.partner_name ?? 'research day'}</td><td class="n">${h.hirey_likeness}</td><td>${h.status}</td><td>${when(h.prepped_at)}</td></tr>`)
      : html`<tr><td colspan="5" class="empty-note">No picks yet.</td></tr>`,
  )}
</section>`;
  return { html: layout({ title: 'Connectors', path: '/connectors', description: 'Rollcall connector playbook: today\u2019s pick and the history.', body }) };
}
