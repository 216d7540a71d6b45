// The published signing keys: whole, for the runtime that signs, or described without their
// private halves, for the operator and stats.
import type { Executor } from '../../platform/db/executor.ts';
import { iso } from '../../platform/clock.ts';
import { identityTables as q } from '../tables.ts';
import { toRecord, type SigningKeyRecord } from './signing-key-row.ts';

/** Keys still published at `now` (not retired), newest first. */
export async function loadSigningKeys(ex: Executor, now: Date): Promise<SigningKeyRecord[]> {
  const rows = await q(ex)
    .selectFrom('signing_keys')
    .selectAll()
    .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', iso(now))]))
    .orderBy('generation', 'desc')
    .execute();
  return rows.map(toRecord);
}

/** The published signing keys without their private halves, newest first (`rollcall keys list`, stats). */
export async function describeSigningKeys(ex: Executor, now: Date): Promise<{ kid: string; generation: number; active_from: string; retire_at: string | null; signing: boolean }[]> {
  const keys = await loadSigningKeys(ex, now);
  // As runtime.ts picks it: the newest key already active signs; a newer one waits for its turn.
  const signing = (keys.find((k) => k.activeFrom <= now) ?? keys[keys.length - 1])?.kid;
  return keys.map((k) => ({ kid: k.kid, generation: k.generation, active_from: iso(k.activeFrom), retire_at: k.retireAt ? iso(k.retireAt) : null, signing: k.kid === signing }));
}
