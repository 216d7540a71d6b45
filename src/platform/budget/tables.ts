// The budget counters table: owned by the platform's budgets (counters.ts). One row per key and
// period (a UTC hour or day): how much of a budget that period used, shared by every instance.
import type { Executor } from '../db/executor.ts';
import { typed } from '../db/executor.ts';

export interface BudgetCountersTable {
  key: string; // <budget>:<host key>
  period: string; // YYYY-MM-DDTHH (an hour) or YYYY-MM-DD (a day), UTC
  n: number;
}

export type BudgetTables = { budget_counters: BudgetCountersTable };

export const budgetTables = (ex: Executor) => typed<BudgetTables>(ex);
