// network_value (DESIGN.md): value = N * (1 + ln(1 + E)) * (1 + Q/N), with N Active listings, E
// composition edges and Q the summed quality of every outcome reported. Measured from the owners'
// stores; one point per UTC day is kept, and a later measure of the same day replaces an earlier
// one, so the stored point of a past day is its last measure (idempotent across instances: the
// day is the key and the newest computed_at wins).
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { countActive } from '../listings/store.ts';
import { countCompositionEdges } from '../mesh/store.ts';
import { outcomeTotals } from '../traces/outcomes.ts';
import { economicsTables as q } from './tables.ts';

export const FORMULA = 'value = N * (1 + ln(1 + E)) * (1 + Q / N); 0 when N = 0';

/** The formula itself (pure). */
export function networkValueOf(n: number, e: number, qSum: number): number {
  if (n <= 0) return 0;
  return n * (1 + Math.log(1 + e)) * (1 + qSum / n);
}

export interface ValuePoint {
  day: string;
  active: number;
  edges: number;
  quality: number;
  value: number;
  computed_at: string;
}

export interface Measure extends ValuePoint {
  agents: number;
  mcps: number;
  compositions: number;
  outcomes: number;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The network now: its parts read from listings, mesh and traces, and the value. */
export async function measureNetwork(ex: Executor, now: Date): Promise<Measure> {
  const at = now.toISOString();
  const active = await countActive(ex);
  const { edges, compositions } = await countCompositionEdges(ex);
  const outcomes = await outcomeTotals(ex, at);
  const n = active.agent + active.mcp;
  return {
    day: at.slice(0, 10),
    active: n,
    agents: active.agent,
    mcps: active.mcp,
    edges,
    compositions,
    quality: round6(outcomes.quality),
    outcomes: outcomes.count,
    value: round6(networkValueOf(n, edges, outcomes.quality)),
    computed_at: at,
  };
}

/** Stores the day's point; a measure older than the stored one changes nothing. */
export async function storePoint(ex: Executor, p: ValuePoint): Promise<void> {
  const row = { day: p.day, active: p.active, edges: p.edges, quality: p.quality, value: p.value, computed_at: p.computed_at };
  await q(ex)
    .insertInto('econ_network_value')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('day')
        .doUpdateSet({ active: row.active, edges: row.edges, quality: row.quality, value: row.value, computed_at: row.computed_at })
        .where(sql<boolean>`econ_network_value.computed_at <= ${row.computed_at}`),
    )
    .execute();
}

/** Measures the network and stores today's point (the periodic task and the network_value tool). */
export async function recordNetworkValue(ex: Executor, now: Date): Promise<Measure> {
  const m = await measureNetwork(ex, now);
  await storePoint(ex, m);
  return m;
}

/** Stored points from `sinceDay` on (inclusive), oldest first. */
export async function valueHistory(ex: Executor, sinceDay: string): Promise<ValuePoint[]> {
  const rows = await q(ex).selectFrom('econ_network_value').selectAll().where('day', '>=', sinceDay).orderBy('day').execute();
  return rows.map((r) => ({ day: r.day, active: Number(r.active), edges: Number(r.edges), quality: Number(r.quality), value: Number(r.value), computed_at: r.computed_at }));
}

export interface Motion {
  day: string;
  value: number;
  /** Change per day since the previous stored point (null for the first). */
  velocity: number | null;
  /** Change of velocity per day since the previous point that had one. */
  acceleration: number | null;
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00.000Z`) / 86_400_000;

/** Day-over-day velocity and acceleration over stored points (gaps divide by the days between). Pure. */
export function motionOf(points: readonly Pick<ValuePoint, 'day' | 'value'>[]): Motion[] {
  const out: Motion[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const prev = out[i - 1];
    const gap = i > 0 ? dayNumber(p.day) - dayNumber(points[i - 1]!.day) : 0;
    const velocity = prev && gap > 0 ? round6((p.value - prev.value) / gap) : null;
    const acceleration = velocity !== null && prev?.velocity != null ? round6((velocity - prev.velocity) / gap) : null;
    out.push({ day: p.day, value: p.value, velocity, acceleration });
  }
  return out;
}
