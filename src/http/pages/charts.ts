// Inline SVG charts, each a pure function of a data series: the same code draws listings Live over
// time today and can draw network_value tomorrow. Colours come from the stylesheet's classes (light
// and dark), every chart has a text title and description for screen readers, and the numbers are
// also printed beside it by the pages, so nothing is only in the picture.
import { html, type Html } from './html.ts';

export interface Point {
  /** The x label (a UTC day, a probe time). */
  x: string;
  y: number;
  /** Marks a point as failed (probe history): drawn as a hollow red dot. */
  bad?: boolean;
}

export interface ChartOptions {
  title: string;
  /** One sentence that says what the chart shows, for assistive technology. */
  summary: string;
  kind?: 'line' | 'bar';
  /** Fixed y range (scores are 0-100); default 0..max. */
  yMax?: number;
  /** Unit after y values in the axis labels. */
  unit?: string;
}

/** The y axis's top and how many gridline steps: whole steps for counts (never 0.25 of a listing). */
export function yAxis(max: number, fixed?: number): { top: number; steps: number } {
  const top = fixed ?? Math.max(4, niceMax(max));
  return { top, steps: top % 4 === 0 && top <= 4 ? 4 : top % 5 === 0 ? 5 : 4 };
}

const W = 600;
const H = 240;
// Room for the labels at the largest size the stylesheet gives them (a narrow box: site.css).
const PAD = { top: 16, right: 16, bottom: 40, left: 60 };
/** Bars stay bars, not slabs, when there are few days. */
const MAX_BAR = 28;

const round = (n: number) => Math.round(n * 10) / 10;

/** A y-axis label: thousands as k (1.5k), so a label stays short enough for a phone. */
const tick = (n: number) => (n >= 1000 ? `${round(n / 1000)}k` : String(round(n)));

/** A "nice" upper bound for the y axis: 1, 2 or 5 times a power of ten. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

/** Running total: daily counts -> a cumulative curve (the s-curve). */
export const cumulative = (series: readonly Point[]): Point[] => {
  const out: Point[] = [];
  for (const p of series) out.push({ x: p.x, y: (out[out.length - 1]?.y ?? 0) + p.y });
  return out;
};

/** First difference: how much each step added (the growth rate of a cumulative curve). */
export const delta = (series: readonly Point[]): Point[] => series.map((p, i) => ({ x: p.x, y: i === 0 ? p.y : p.y - series[i - 1]!.y }));

/**
 * Fills the UTC days between the first and last with zeros, so time is evenly spaced; `minDays`
 * starts the series earlier when it is shorter, so a young network's curve starts at zero.
 */
export function dailySeries(days: readonly { day: string; value: number }[], fromDay?: string, toDay?: string, minDays = 1): Point[] {
  const sorted = [...days].sort((a, b) => a.day.localeCompare(b.day));
  const last0 = toDay ?? sorted[sorted.length - 1]?.day;
  const earliest = last0 ? new Date(Date.parse(`${last0}T00:00:00Z`) - (minDays - 1) * 86_400_000).toISOString().slice(0, 10) : undefined;
  const given = fromDay ?? sorted[0]?.day;
  const first = given && earliest && earliest < given ? earliest : given;
  const last = toDay ?? sorted[sorted.length - 1]?.day;
  if (!first || !last) return [];
  const byDay = new Map(sorted.map((d) => [d.day, d.value]));
  const out: Point[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    out.push({ x: day, y: byDay.get(day) ?? 0 });
  }
  return out;
}

let chartSeq = 0;

/** An SVG chart of one series; an empty series draws an honest "no data yet" frame. */
export function chart(series: readonly Point[], o: ChartOptions): Html {
  const id = `c${++chartSeq}`;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const { top, steps } = yAxis(Math.max(0, ...series.map((p) => p.y)), o.yMax);
  const n = series.length;
  const kind = o.kind ?? 'line';
  const xAt = (i: number) => PAD.left + (kind === 'bar' ? ((i + 0.5) * innerW) / Math.max(n, 1) : n <= 1 ? innerW / 2 : (i * innerW) / (n - 1));
  const yAt = (y: number) => PAD.top + innerH - (Math.max(0, Math.min(y, top)) / top) * innerH;
  const unit = o.unit ?? '';
  const grid = Array.from({ length: steps + 1 }, (_, i) => i / steps).map((f) => {
    const y = round(PAD.top + innerH - f * innerH);
    return html`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}"></line><text class="axis" x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${tick(top * f)}${unit}</text>`;
  });
  const labels = n
    ? [0, Math.floor((n - 1) / 2), n - 1]
        .filter((v, i, a) => a.indexOf(v) === i)
        // The first label starts at its point and the last ends at it, so neither is cut at the edge.
        // The middle one is `mid`: a narrow chart leaves it out (site.css), so the ends never overlap it.
        .map((i) => {
          const end = n > 1 && (i === 0 || i === n - 1);
          return html`<text class="${end || n === 1 ? 'axis' : 'axis mid'}" x="${round(xAt(i))}" y="${H - 8}" text-anchor="${n > 1 && i === 0 ? 'start' : n > 1 && i === n - 1 ? 'end' : 'middle'}">${series[i]!.x.slice(0, 16).replace('T', ' ')}</text>`;
        })
    : [];
  let marks: Html;
  if (!n) {
    marks = html`<text class="axis empty" x="${W / 2}" y="${H / 2}" text-anchor="middle">no data yet</text>`;
  } else if (kind === 'bar') {
    const bw = Math.min(MAX_BAR, Math.max(2, (innerW / n) * 0.7));
    marks = html`${series.map((p, i) => html`<rect class="bar" x="${round(xAt(i) - bw / 2)}" y="${round(yAt(p.y))}" width="${round(bw)}" height="${round(PAD.top + innerH - yAt(p.y))}"><title>${p.x}: ${p.y}${unit}</title></rect>`)}`;
  } else {
    const pts = series.map((p, i) => `${round(xAt(i))},${round(yAt(p.y))}`).join(' ');
    const area = `${round(xAt(0))},${PAD.top + innerH} ${pts} ${round(xAt(n - 1))},${PAD.top + innerH}`;
    marks = html`<polygon class="area" points="${area}"></polygon><polyline class="line" points="${pts}"></polyline>${series.map(
      (p, i) => html`<circle class="${p.bad ? 'dot bad' : 'dot'}" cx="${round(xAt(i))}" cy="${round(yAt(p.y))}" r="${n > 40 ? 2.5 : 3.5}"><title>${p.x}: ${p.y}${unit}${p.bad ? ' (failed)' : ''}</title></circle>`,
    )}`;
  }
  // The box is the container the stylesheet sizes the labels by (a chart's width is its box's).
  return html`<div class="chart-box"><svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}t ${id}d" data-points="${n}"><title id="${id}t">${o.title}</title><desc id="${id}d">${o.summary}</desc>${grid}${marks}${labels}</svg></div>`;
}
