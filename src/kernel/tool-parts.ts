// What improve_kernel and run_loop_tick answer with beside their own fields: the output shapes of
// next_step and meter, the claims a follow-up call repeats, and the subject as shown.
import { z } from 'zod';
import type { Subject } from '../metering/caller.ts';

export const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
export const meterOutput = z.looseObject({ event_id: z.string(), used_today: z.number(), free_per_day: z.number(), refills_today: z.number(), remaining: z.number() });

/** Claims for the next call: the ones this call used (never the token: send it again yourself). */
export const claimsOf = (input: { agent_name?: string; listing_id?: string }) => ({
  ...(input.agent_name !== undefined ? { agent_name: input.agent_name } : {}),
  ...(input.listing_id !== undefined ? { listing_id: input.listing_id } : {}),
});

export const subjectView = (s: Subject) => ({ kind: s.kind, label: s.label, ...(s.note ? { note: s.note } : {}) });

/** Both tools' `detail`: the evidence read and the community themes' evidence, beside the counts. */
export const detailField = z.boolean().optional().describe('Also list the evidence read.');
