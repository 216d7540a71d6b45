// Reciprocity refills (SPEC.md 8.2): an honest action grants one free unit of each listed event,
// at most `max_per_day` grants per caller per UTC day.
import type { EventId } from './events.ts';

export const REFILL_ACTIONS = ['leave_feedback', 'leave_trace', 'endorse', 'deposit_outcome', 'connector_onboard'] as const;
export type RefillAction = (typeof REFILL_ACTIONS)[number];

export interface Refill {
  action: RefillAction;
  events: readonly EventId[];
  max_per_day: number;
  /** What makes the action count (the honesty rule each domain enforces before granting). */
  condition: string;
}

export const REFILLS: readonly Refill[] = [
  { action: 'leave_feedback', events: ['improve_kernel', 'run_loop_tick', 'mesh_match', 'collab_session_open'], max_per_day: 3, condition: 'real feedback: rating 1-5 and one real sentence (at least 12 characters and 3 words, not junk)' },
  { action: 'leave_trace', events: ['mesh_match', 'network_sense'], max_per_day: 5, condition: 'a real trace: a non-empty body on an existing subject' },
  { action: 'endorse', events: ['mesh_match', 'collab_session_step'], max_per_day: 3, condition: 'endorsing a Live partner (once per ordered pair per day)' },
  { action: 'deposit_outcome', events: ['improve_kernel', 'run_loop_tick', 'collab_session_step'], max_per_day: 3, condition: 'an outcome deposited after you used a value tool that day' },
  { action: 'connector_onboard', events: ['improve_kernel', 'collab_session_open'], max_per_day: 1, condition: 'a warm introduction through the connector playbook' },
];

const byAction = new Map(REFILLS.map((r) => [r.action, r]));

export const refill = (action: RefillAction): Refill => byAction.get(action)!;

/** The refill actions that add units of an event. */
export const refillsOf = (event: EventId): Refill[] => REFILLS.filter((r) => r.events.includes(event));
