// `/grow`: how the network grows, drawn from real data: listings first gone Live per UTC day
// summed into the s-curve, its daily growth and acceleration (the change in daily growth), and
// activity (public events and trace deposits). The charts are pure functions of a series
// (charts.ts); network value is network_value's stored daily points (the tool measures today's).
import { networkValue } from '../../economics/operations.ts';
import { growthSeries } from '../../registry/page-reads.ts';
import { chart, cumulative, dailySeries, delta, type Point } from './charts.ts';
import { html, type Html } from './html.ts';
import { layout, pageHead, scrollTable, stat } from './layout.ts';
import type { PageCtx, PageResult } from './page.ts';

const WINDOW_DAYS = 90;
/** Charts span at least two weeks, so a curve shows where it started. */
const MIN_DAYS = 14;

const figure = (c: Html, caption: string) => html`<figure class="chart-figure">${c}<figcaption class="chart-cap">${caption}</figcaption></figure>`;
const last = (s: Point[]) => s[s.length - 1]?.y ?? 0;

export async function growPage(p: PageCtx): Promise<PageResult> {
  const g = await growthSeries(p.services.db.kysely, p.now, WINDOW_DAYS);
  const nv = await p.run(networkValue, { days: WINDOW_DAYS });
  // Only stored days are drawn: a day nobody measured has no value, not a value of 0.
  const value = nv.history.map((h) => ({ x: h.day, y: Math.round(h.value * 100) / 100 }));
  const from = g.days[0]?.day;
  const series = (value: (d: (typeof g.days)[number]) => number) => dailySeries(g.days.map((d) => ({ day: d.day, value: value(d) })), from, g.today, MIN_DAYS);
  const wentLive = series((d) => d.went_live);
  const sCurve = cumulative(wentLive);
  const accel = delta(wentLive);
  const listed = cumulative(series((d) => d.listed));
  const events = series((d) => d.events);
  const deposits = series((d) => d.deposits);
  const body = html`
${pageHead('Grow', html`How the network grows, from the registry's own records over the last ${WINDOW_DAYS} days, today included (since <time datetime="${g.since_day}">${g.since_day}</time>): every chart is real data, and its numbers are in the table below it.`)}
<dl class="stats" aria-label="Network now">
  ${stat('Network value', Math.round(nv.value * 100) / 100)}
  ${stat('Live now', g.listings.live)}
  ${stat('Listed', g.listings.total)}
  ${stat('Gone Live, window', last(sCurve))}
  ${stat('Trace deposits, window', deposits.reduce((n, x) => n + x.y, 0))}
</dl>
<div class="charts">
  <section class="panel" aria-labelledby="v-h">
    <h2 id="v-h">Network value</h2>
    ${figure(chart(value, { title: 'Network value per UTC day', summary: `network_value's stored daily points: N Active listings, composition edges and outcome quality; ${value.length} day(s) stored.` }), 'value = N \u00b7 (1 + ln(1 + E)) \u00b7 (1 + Q/N), one stored point per UTC day.')}
  </section>
  <section class="panel" aria-labelledby="s-h">
    <h2 id="s-h">S-curve: listings gone Live</h2>
    ${figure(chart(sCurve, { title: 'Listings gone Live, cumulative', summary: `Cumulative count of listings that first went Live, per UTC day; ${last(sCurve)} in the window.` }), 'Running total of first-time Live listings per UTC day.')}
  </section>
  <section class="panel" aria-labelledby="a-h">
    <h2 id="a-h">Growth and acceleration</h2>
    ${figure(chart(wentLive, { kind: 'bar', title: 'New Live listings per day', summary: 'Listings that first went Live on each UTC day.' }), 'New Live listings per day (the s-curve\u2019s slope).')}
    ${figure(chart(accel.map((x) => ({ ...x, y: Math.max(0, x.y) })), { kind: 'bar', title: 'Acceleration', summary: 'Positive day-over-day change in new Live listings.' }), 'Acceleration: how much more went Live than the day before (gains only).')}
  </section>
  <section class="panel" aria-labelledby="l-h">
    <h2 id="l-h">Listed</h2>
    ${figure(chart(listed, { title: 'Listings, cumulative', summary: `Cumulative listings created per UTC day; ${last(listed)} in the window.` }), 'Every listing created, Live or not.')}
  </section>
  <section class="panel" aria-labelledby="act-h">
    <h2 id="act-h">Activity</h2>
    ${figure(chart(events, { kind: 'bar', title: 'Public events per day', summary: 'Public feed events (listed, Live, demos, feedback) per UTC day.' }), 'Public feed events per day.')}
    ${figure(chart(deposits, { kind: 'bar', title: 'Trace deposits per day', summary: 'Trace deposits (trails, endorsements, outcomes, automatic marks) per UTC day.' }), 'Trace deposits per day.')}
  </section>
</div>
<section class="panel" aria-labelledby="t-h">
  <h2 id="t-h">The numbers</h2>
  ${scrollTable(
    'nums-t',
    'Listings, Live listings, public events and trace deposits per UTC day, newest first',
    html`<tr><th scope="col">UTC day</th><th scope="col" class="n">Listed</th><th scope="col" class="n">Went Live</th><th scope="col" class="n">Public events</th><th scope="col" class="n">Trace deposits</th></tr>`,
    g.days.length
      ? [...g.days].reverse().map((d) => html`<tr><th scope="row">${d.day}</th><td class="n">${d.listed}</td><td class="n">${d.went_live}</td><td class="n">${d.events}</td><td class="n">${d.deposits}</td></tr>`)
      : html`<tr><td colspan="5" class="empty-note">No activity in the window yet.</td></tr>`,
  )}
</section>`;
  return { html: layout({ title: 'Grow', path: '/grow', description: 'How the Rollcall network grows: s-curve, acceleration and activity from real data.', body }) };
}
