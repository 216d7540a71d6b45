// The jobs table (DESIGN.md stack row "jobs"): due work claimed under a lease, so on one instance
// or many a job is never run twice at once, and a job whose runner died is taken over once its
// lease expires. A claim takes waiting work first (priority 0), then the longest due, and never
// more of one fairness group (a probe's host) than the caller may still run of it. On PostgreSQL
// concurrent claimers skip rows another one is taking (FOR UPDATE SKIP LOCKED); SQLite has one
// writer at a time.
// One file per database operation in store/, each with its test beside it; this index is what
// other files import.
export { jobId, ROUTINE, URGENT, type Job, type JobSpec, type Lease } from './store/job-row.ts';
export { scheduleJob, scheduleJobPart } from './store/schedule-job.ts';
export { findJob } from './store/find-job.ts';
export { claimDue, type ClaimFilter, type OnClaimed } from './store/claim-due.ts';
export { anyDue } from './store/any-due.ts';
export { claimJob } from './store/claim-job.ts';
export { stillHeld, stillHeldPart } from './store/still-held.ts';
export { completeJob, completeJobPart } from './store/complete-job.ts';
export { releaseLease } from './store/release-lease.ts';
export { ensureJob } from './store/ensure-job.ts';
export { removeJob, removeJobPart } from './store/remove-job.ts';
export { queueStats, type QueueStats } from './store/queue-stats.ts';
