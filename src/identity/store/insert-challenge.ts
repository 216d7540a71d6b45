// bind_identity's one-time challenge, stored; the expired ones go on the way.
import type { Executor } from '../../platform/db/executor.ts';
import { identityTables as q } from '../tables.ts';

export interface Challenge {
  id: string;
  listing_id: string;
  nonce: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Stores a challenge; challenges already expired (of any listing) are deleted on the way, so the table stays small. */
export async function insertChallenge(ex: Executor, challenge: Challenge): Promise<void> {
  await q(ex).deleteFrom('identity_challenges').where('expires_at', '<', challenge.created_at).execute();
  await q(ex).insertInto('identity_challenges').values(challenge).execute();
}
