// Granting a reciprocity refill (SPEC.md 8.2) after an honest action; the domain that checked the
// action's honesty calls this in the same transaction as the action.
import type { Executor } from '../platform/db/executor.ts';
import { refill, type RefillAction } from './refills.ts';
import { grantRefill } from './store.ts';
import { utcDay } from './day.ts';
import type { Subject } from './caller.ts';

export interface RefillResult {
  action: RefillAction;
  granted: boolean;
  /** The events that got one more free unit (empty when not granted). */
  events: string[];
  grants_today: number;
  max_per_day: number;
  /** Why nothing was granted. */
  reason?: string;
}

export async function grantFor(trx: Executor, subject: Subject, action: RefillAction, now: Date): Promise<RefillResult> {
  const r = refill(action);
  const grants = await grantRefill(trx, subject.allowance, utcDay(now), action, r.events, r.max_per_day);
  if (grants === undefined) {
    return { action, granted: false, events: [], grants_today: r.max_per_day, max_per_day: r.max_per_day, reason: `the ${action} refill is granted at most ${r.max_per_day} times a day` };
  }
  return { action, granted: true, events: [...r.events], grants_today: grants, max_per_day: r.max_per_day };
}
