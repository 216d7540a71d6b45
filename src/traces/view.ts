// How a field entry is shown to callers: its subject in the words of the tools' inputs, the value
// decayed to now, and the channel's half-life so the caller can project it forward.
import { z } from 'zod';
import { HALF_LIFE_H, type Channel } from './channels.ts';
import type { FieldEntry } from './store.ts';

export type SubjectView = { kind: 'listing'; listing_id: string } | { kind: 'capability'; capability: string } | { kind: 'pair'; listing_id: string; partner_listing_id: string };

export interface TraceView {
  channel: Channel;
  subject: SubjectView;
  /** Decayed to the time of the read, rounded to 6 decimals. */
  value: number;
  deposits: number;
  last_at: string;
  half_life_h: number;
}

export const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function subjectView(e: Pick<FieldEntry, 'subject_kind' | 'a' | 'b'>): SubjectView {
  if (e.subject_kind === 'listing') return { kind: 'listing', listing_id: e.a };
  if (e.subject_kind === 'capability') return { kind: 'capability', capability: e.a };
  return { kind: 'pair', listing_id: e.a, partner_listing_id: e.b ?? '' };
}

export const traceView = (e: FieldEntry): TraceView => ({
  channel: e.channel,
  subject: subjectView(e),
  value: round6(e.value),
  deposits: e.deposits,
  last_at: e.last_at,
  half_life_h: HALF_LIFE_H[e.channel],
});

export const traceViewOutput = z.looseObject({
  channel: z.enum(['attraction', 'demand', 'danger', 'joined']),
  subject: z.looseObject({ kind: z.enum(['listing', 'capability', 'pair']) }),
  value: z.number(),
  deposits: z.number(),
  last_at: z.string(),
  half_life_h: z.number(),
});
