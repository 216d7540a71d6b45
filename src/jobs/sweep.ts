// The periodic sweep (a singleton leased job): Live listings whose talk grace ran out with no
// recent check-in go dormant, and the change feed and the active-list snapshots are kept bounded.
import type { Services } from '../platform/operation.ts';
import { DAY_MS, HOUR_MS, iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/changes.ts';
import { updateListing } from '../listings/store.ts';
import { PRESENCE_WINDOW_DAYS } from '../talk/presence.ts';
import { completeJob, stillHeld, type Lease } from './store.ts';
import type { JobHandler } from './runner.ts';

export const SWEEP_JOB = { id: 'sweep', kind: 'sweep' as const, subject: null };

export class SweepJob implements JobHandler {
  constructor(private readonly services: Pick<Services, 'db' | 'clock' | 'log' | 'config'>) {}

  async run(lease: Lease): Promise<void> {
    const { db, clock, config } = this.services;
    const now = clock.now();
    const nowIso = iso(now);
    await inTransaction(db.kysely, async (trx) => {
      if (!(await stillHeld(trx, db, lease))) return;
      const graceStart = iso(new Date(now.getTime() - config.talkGraceDays * DAY_MS));
      const presentSince = iso(new Date(now.getTime() - PRESENCE_WINDOW_DAYS * DAY_MS));
      const absent = await trx
        .selectFrom('listings')
        .select('id')
        .where('lane', '=', 'active')
        .where('live_since', '<=', graceStart)
        .where((eb) => eb.or([eb('talk_last_at', 'is', null), eb('talk_last_at', '<', presentSince)]))
        .execute();
      for (const { id } of absent) await updateListing(trx, id, { lane: 'dormant', lane_reason: 'talk_absent' }, nowIso);
      if (absent.length) this.services.log.info({ count: absent.length }, 'listings went dormant: no talk check-in');

      await trx.deleteFrom('changes').where('at', '<', iso(new Date(now.getTime() - config.changesKeepH * HOUR_MS))).execute();
      await trx.deleteFrom('active_snapshots').where('created_at', '<', iso(new Date(now.getTime() - config.snapshotKeepS * 1000))).execute();
      await completeJob(trx, lease, iso(new Date(now.getTime() + config.sweepIntervalS * 1000)), 0, nowIso);
    });
  }
}
