// One job by id.
import type { Executor } from '../../db/executor.ts';
import { q, type Job } from './job-row.ts';

export async function findJob(db: Executor, id: string): Promise<Job | undefined> {
  return q(db).selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}
