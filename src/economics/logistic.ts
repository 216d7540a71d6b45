// The logistic fit behind s_curve_board: y(t) = K / (1 + e^(-r (t - t0))) by least squares. A
// coarse grid over (r, t0), where the best K has a closed form, finds the basin; Levenberg-Marquardt
// on all three parameters then refines it. Pure: no clock, no database.

export interface LogisticFit {
  /** Carrying capacity: where the curve levels off (never below the largest count seen). */
  k: number;
  /** Growth rate per day. */
  r: number;
  /** The day (as t) of the inflection, where growth is fastest (y = K/2). */
  t0: number;
  /** Share of the variance the fit explains (1: perfect). */
  r2: number;
}

export type Phase = 'seed' | 'takeoff' | 'saturation';

/** Fewer points than this leave three parameters undetermined. */
export const MIN_POINTS = 4;
/** K is bounded: early exponential growth says nothing of the ceiling, so it stops at this multiple. */
export const MAX_K_FACTOR = 100;

const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

export const logistic = (t: number, f: Pick<LogisticFit, 'k' | 'r' | 't0'>): number => f.k * sigmoid(f.r * (t - f.t0));

function sse(ts: readonly number[], ys: readonly number[], k: number, r: number, t0: number): number {
  let s = 0;
  for (let i = 0; i < ts.length; i++) {
    const d = ys[i]! - k * sigmoid(r * (ts[i]! - t0));
    s += d * d;
  }
  return s;
}

/** Solves a 3x3 system by Gaussian elimination with partial pivoting (undefined when singular). */
function solve3(a: number[][], b: number[]): number[] | undefined {
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < 3; c++) {
    let p = c;
    for (let r = c + 1; r < 3; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-300) return undefined;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < 3; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let j = c; j < 4; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  }
  const x = [0, 0, 0];
  for (let r = 2; r >= 0; r--) {
    let s = m[r]![3]!;
    for (let j = r + 1; j < 3; j++) s -= m[r]![j]! * x[j]!;
    x[r] = s / m[r]![r]!;
  }
  return x.every(Number.isFinite) ? x : undefined;
}

/** Least-squares logistic through (t, y); undefined with too few points or nothing counted. */
export function fitLogistic(ts: readonly number[], ys: readonly number[]): LogisticFit | undefined {
  if (ts.length !== ys.length || ts.length < MIN_POINTS) return undefined;
  const yMax = Math.max(...ys);
  if (!(yMax > 0)) return undefined;
  const tMin = Math.min(...ts);
  const tMax = Math.max(...ts);
  const span = Math.max(tMax - tMin, 1);
  const kLo = yMax;
  const kHi = yMax * MAX_K_FACTOR;
  const clampK = (k: number) => Math.min(kHi, Math.max(kLo, k));

  // 1. Grid over rate and midpoint; K from its closed form for each.
  let best = { k: yMax, r: 1, t0: tMax, e: Number.POSITIVE_INFINITY };
  for (let i = 0; i <= 40; i++) {
    const r = (0.02 * (50 / 0.02) ** (i / 40)) / span; // 0.02/span .. 50/span per day
    for (let j = 0; j <= 60; j++) {
      const t0 = tMin - span + (3 * span * j) / 60;
      let gy = 0;
      let gg = 0;
      for (let n = 0; n < ts.length; n++) {
        const g = sigmoid(r * (ts[n]! - t0));
        gy += g * ys[n]!;
        gg += g * g;
      }
      if (gg <= 0) continue;
      const k = clampK(gy / gg);
      const e = sse(ts, ys, k, r, t0);
      if (e < best.e) best = { k, r, t0, e };
    }
  }

  // 2. Levenberg-Marquardt on (K, r, t0).
  let { k, r, t0, e } = best;
  let lambda = 1e-3;
  for (let iter = 0; iter < 200 && e > 0; iter++) {
    const jtj = [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ];
    const jtr = [0, 0, 0];
    for (let n = 0; n < ts.length; n++) {
      const dt = ts[n]! - t0;
      const s = sigmoid(r * dt);
      const res = ys[n]! - k * s;
      const jac = [s, k * s * (1 - s) * dt, -k * s * (1 - s) * r];
      for (let a = 0; a < 3; a++) {
        jtr[a]! += jac[a]! * res;
        for (let b = 0; b < 3; b++) jtj[a]![b]! += jac[a]! * jac[b]!;
      }
    }
    const damped = jtj.map((row, a) => row.map((v, b) => (a === b ? v + lambda * (v || 1e-12) : v)));
    const step = solve3(damped, jtr);
    if (!step) break;
    const next = { k: clampK(k + step[0]!), r: Math.max(1e-6, r + step[1]!), t0: t0 + step[2]! };
    const ne = sse(ts, ys, next.k, next.r, next.t0);
    if (ne < e) {
      const gain = e - ne;
      ({ k, r, t0 } = next);
      e = ne;
      lambda = Math.max(lambda / 10, 1e-12);
      if (gain < 1e-12 * (1 + e)) break;
    } else {
      lambda *= 10;
      if (lambda > 1e12) break;
    }
  }

  const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
  const total = ys.reduce((a, y) => a + (y - mean) ** 2, 0);
  return { k, r, t0, r2: total > 0 ? 1 - e / total : 1 };
}

/**
 * Where a curve stands: seed before the takeoff (under ~12% of K, i.e. before t0 - 2/r),
 * takeoff on the steep part, saturation past ~88% of K (after t0 + 2/r).
 */
export function phaseOf(current: number, fit: LogisticFit | undefined): Phase {
  if (!fit || !(fit.k > 0)) return 'seed';
  const share = current / fit.k;
  if (share < 0.12) return 'seed';
  if (share < 0.88) return 'takeoff';
  return 'saturation';
}
