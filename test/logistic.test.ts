// The logistic fit behind s_curve_board (src/economics/logistic.ts), against known curves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitLogistic, logistic, phaseOf } from '../src/economics/logistic.ts';

const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

test('recovers K, r and t0 of an exact logistic curve', () => {
  const truth = { k: 100, r: 0.5, t0: 10 };
  const ts = Array.from({ length: 21 }, (_, i) => i);
  const fit = fitLogistic(ts, ts.map((t) => logistic(t, truth)));
  assert.ok(fit);
  near(fit.k, 100, 0.01, 'K');
  near(fit.r, 0.5, 0.001, 'r');
  near(fit.t0, 10, 0.01, 't0');
  near(fit.r2, 1, 1e-9, 'r2');
});

test('a noisy curve still lands near the truth, and integer counts (cumulative adoption) too', () => {
  const truth = { k: 250, r: 0.3, t0: 15 };
  const ts = Array.from({ length: 31 }, (_, i) => i);
  // Deterministic "noise": rounding to whole adopters plus a small alternating wobble.
  const ys = ts.map((t, i) => Math.round(logistic(t, truth)) + (i % 2 === 0 ? 2 : -2));
  const fit = fitLogistic(ts, ys);
  assert.ok(fit);
  near(fit.k, 250, 5, 'K');
  near(fit.r, 0.3, 0.02, 'r');
  near(fit.t0, 15, 0.5, 't0');
  assert.ok(fit.r2 > 0.99, String(fit.r2));
});

test('phases: seed before takeoff, takeoff on the steep part, saturation near K', () => {
  const fit = { k: 100, r: 0.5, t0: 10, r2: 1 };
  assert.equal(phaseOf(logistic(2, fit), fit), 'seed');
  assert.equal(phaseOf(logistic(10, fit), fit), 'takeoff');
  assert.equal(phaseOf(logistic(18, fit), fit), 'saturation');
  assert.equal(phaseOf(5, undefined), 'seed');
});

test('too few points or nothing counted: no fit', () => {
  assert.equal(fitLogistic([0, 1, 2], [1, 2, 3]), undefined);
  assert.equal(fitLogistic([0, 1, 2, 3], [0, 0, 0, 0]), undefined);
  assert.equal(fitLogistic([0, 1], [1]), undefined);
});

test('pure exponential growth keeps K bounded and reads as seed or takeoff, never saturation', () => {
  const ts = Array.from({ length: 10 }, (_, i) => i);
  const fit = fitLogistic(ts, ts.map((t) => 2 ** t));
  assert.ok(fit);
  assert.ok(fit.k >= 512 && fit.k <= 512 * 100);
  assert.notEqual(phaseOf(512, fit), 'saturation');
});
