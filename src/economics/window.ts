// The `days` window the economics tools share, and the first UTC day it covers.
import { z } from 'zod';
import { DAY_MS } from '../platform/clock.ts';

export const MAX_DAYS = 365;
export const daysArg = (fallback: number) =>
  z.coerce.number().int().min(1).max(MAX_DAYS).default(fallback).describe(`How many UTC days back, today included (default ${fallback}, 1 to ${MAX_DAYS}).`);

export const sinceDayOf = (now: Date, days: number): string => new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);

export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
