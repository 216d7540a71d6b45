// A job whose subject is gone.
import type { Executor } from '../../db/executor.ts';
import { write, type Part } from '../../db/together.ts';
import { q } from './job-row.ts';

/** removeJob as a part of a batch (platform/db/together.ts). */
export const removeJobPart = (db: Executor, id: string): Part<void> => write(q(db).deleteFrom('jobs').where('id', '=', id));

export async function removeJob(db: Executor, id: string): Promise<void> {
  await q(db).deleteFrom('jobs').where('id', '=', id).execute();
}
