// Trace channels, their half-lives (DESIGN.md "Traces") and the decay rule v * 2^(-dt/half_life).
import { HOUR_MS } from '../platform/clock.ts';

export const CHANNELS = ['attraction', 'demand', 'danger', 'joined'] as const;
export type Channel = (typeof CHANNELS)[number];

export const HALF_LIFE_H: Record<Channel, number> = { attraction: 168, demand: 48, danger: 72, joined: 336 };

export const halfLifeMs = (channel: Channel): number => HALF_LIFE_H[channel] * HOUR_MS;

/** A value deposited (or last decayed) at `atMs`, as it stands at `nowMs`. */
export const decayed = (value: number, atMs: number, nowMs: number, channel: Channel): number =>
  value * 2 ** (-Math.max(0, nowMs - atMs) / halfLifeMs(channel));

/** Intensity bounds of one deposit (DESIGN.md). */
export const MIN_INTENSITY = 1;
export const MAX_INTENSITY = 50;
