// The calls that give a loop tick evidence, as next_steps a caller completes with what only it can
// write: leave_feedback (a rating and one sentence on the kernel), deposit_outcome (how a run with
// the kernel went) and improve_kernel's same-call feedback (a rating and a sentence with the goals,
// which also builds a new version). A tick reads all three (evidence.ts).
import { nextStep, type NextStep } from '../platform/next-step.ts';

export interface EvidenceWho {
  /** The agent name the tools that require one are given (the caller's, else its kernel's). */
  agent_name: string;
  /** The listing the caller named, when it did. */
  listing_id?: string;
  /** The kernel's goals, so a rebuild with feedback keeps them; left out where the same answer shows them (artifact.objectives). */
  goals?: string[];
}

export function evidenceSteps(who: EvidenceWho): NextStep[] {
  const claims = { agent_name: who.agent_name, ...(who.listing_id !== undefined ? { listing_id: who.listing_id } : {}) };
  return [
    nextStep(
      'leave_feedback',
      { ...claims, surface: 'run_loop_tick', sku: 'kernel' },
      'Rate how your agent did with its system_prompt_short (1-5, one real sentence); the next tick edits the check it speaks to.',
      ['rating', 'body'],
    ),
    nextStep(
      // No listing_id: the outcome concerns your kernel, and is read as yours.
      'deposit_outcome',
      { agent_name: who.agent_name, from: 'run_loop_tick' },
      'Report how a run with the kernel went (ok, quality 0..1, one sentence); the next tick reads it.',
      ['ok', 'quality', 'body'],
    ),
    who.goals
      ? nextStep('improve_kernel', { ...claims, goals: who.goals }, 'Rebuild the kernel from these goals with a rating and one sentence: applied now, and read by the next tick.', ['rating', 'body'])
      : nextStep('improve_kernel', claims, 'Rebuild the kernel from your goals (artifact.objectives) with a rating and one sentence: applied now, and read by the next tick.', ['goals', 'rating', 'body']),
  ];
}
