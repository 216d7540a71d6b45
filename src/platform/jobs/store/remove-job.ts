// A job whose subject is gone.
import type { Executor } from '../../db/executor.ts';
import { q } from './job-row.ts';

export async function removeJob(db: Executor, id: string): Promise<void> {
  await q(db).deleteFrom('jobs').where('id', '=', id).execute();
}
