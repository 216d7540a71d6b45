// Time is injected everywhere (DESIGN.md "Time") so tests can move it; all days are UTC days.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that tests set and advance by hand. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export const iso = (d: Date): string => d.toISOString();
export const hoursBetween = (from: string | Date, to: Date): number =>
  Math.max(0, (to.getTime() - new Date(from).getTime()) / HOUR_MS);
