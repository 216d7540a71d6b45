// The jobs table (DESIGN.md stack row "jobs"): owned by the platform's job runner. Kinds are open:
// a domain registers its own kinds with the runner and never reads this table itself.
export interface JobsTable {
  id: string; // `<kind>:<subject>` for per-subject jobs, the kind alone for singletons
  kind: string;
  subject: string | null;
  due_at: string;
  attempts: number; // consecutive failures, for backoff (the handler decides what they mean)
  priority: number; // 0: someone is waiting for it; 1: routine. Claims take lower first.
  group_key: string | null; // fairness group (a probe's host): claims respect a per-group cap
  lease_token: string | null;
  lease_until: string | null;
  updated_at: string;
}

export type JobTables = { jobs: JobsTable };
