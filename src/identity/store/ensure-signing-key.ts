// The deployment's first signing key, made once however many instances start together.
import type { Executor } from '../../platform/db/executor.ts';
import { identityTables as q } from '../tables.ts';
import { insertKey } from './signing-key-row.ts';

/**
 * The deployment's first key, made once: instances starting together on one database each try
 * to insert generation 0 and all but one insert nothing, then everyone reads the same row.
 */
export async function ensureSigningKey(ex: Executor, now: Date): Promise<void> {
  const any = await q(ex).selectFrom('signing_keys').select('kid').limit(1).executeTakeFirst();
  if (!any) await insertKey(ex, 0, now, now);
}
