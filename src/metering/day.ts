// UTC days (SPEC.md 8.1: allowances reset at the UTC day boundary).
import { DAY_MS } from '../platform/clock.ts';

export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/** The start of the next UTC day: when today's allowances reset. */
export const nextReset = (now: Date): string => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS).toISOString();
