// Free-form agent names per address and day, bounded so one address cannot mint subjects.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';

/**
 * Records that an address used a free-form agent name today, when it has used fewer than `max`
 * names today (or this one already). Returns whether the name may be used.
 */
export async function admitName(ex: Executor, address: string, day: string, name: string, max: number, record = true): Promise<boolean> {
  const known = await q(ex).selectFrom('meter_names').select('name').where('address', '=', address).where('day', '=', day).where('name', '=', name).executeTakeFirst();
  if (known) return true;
  const count = await q(ex).selectFrom('meter_names').select((eb) => eb.fn.countAll<number>().as('n')).where('address', '=', address).where('day', '=', day).executeTakeFirstOrThrow();
  if (Number(count.n) >= max) return false;
  if (!record) return true;
  await q(ex)
    .insertInto('meter_names')
    .values({ address, day, name })
    .onConflict((oc) => oc.columns(['address', 'day', 'name']).doNothing())
    .execute();
  return true;
}
