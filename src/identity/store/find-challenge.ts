// A challenge by id, to check a proof against it.
import type { Executor } from '../../platform/db/executor.ts';
import { identityTables as q } from '../tables.ts';
import type { Challenge } from './insert-challenge.ts';

export async function findChallenge(ex: Executor, id: string): Promise<Challenge | undefined> {
  return q(ex).selectFrom('identity_challenges').selectAll().where('id', '=', id).executeTakeFirst();
}
