// When each caller first used each event, for the economics s-curves.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';

/** The first UTC day each subject used each event (s_curve_board: adopters per product). */
export async function firstUses(ex: Executor): Promise<{ subject: string; event_id: string; day: string }[]> {
  const rows = await q(ex)
    .selectFrom('meter_usage')
    .select((eb) => ['subject', 'event_id', eb.fn.min<string>('day').as('day')])
    .where((eb) => eb.or([eb('used', '>', 0), eb('paid', '>', 0)]))
    .groupBy(['subject', 'event_id'])
    .execute();
  return rows.map((r) => ({ subject: r.subject, event_id: r.event_id, day: String(r.day) }));
}
