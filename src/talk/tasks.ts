// Talk's periodic work: claimed Live listings whose grace ran out with no check-in in the presence
// window go dormant (DESIGN.md "Listing lifecycle"). Unclaimed listings never do for this reason.
import type { Config } from '../config.ts';
import type { PeriodicTask } from '../platform/jobs/runner.ts';
import type { Logger } from '../platform/log.ts';
import { DAY_MS, iso } from '../platform/clock.ts';
import { activeLiveSince, updateListing } from '../listings/store.ts';
import { presenceOf } from './view.ts';
import { PRESENCE_WINDOW_DAYS } from './presence.ts';

const CHUNK = 500;

export const dormancyTask = (config: Config, log: Logger): PeriodicTask => ({
  name: 'talk.dormancy',
  periodS: config.sweepIntervalS,
  async run(trx, now) {
    const nowIso = iso(now);
    const graceStart = iso(new Date(now.getTime() - config.talkGraceDays * DAY_MS));
    const presentSince = iso(new Date(now.getTime() - PRESENCE_WINDOW_DAYS * DAY_MS));
    const candidates = await activeLiveSince(trx, graceStart);
    let absent = 0;
    for (let i = 0; i < candidates.length; i += CHUNK) {
      const chunk = candidates.slice(i, i + CHUNK);
      const presence = await presenceOf(trx, chunk);
      for (const id of chunk) {
        const p = presence.get(id);
        if (!p || p.claimed_at === null || p.claimed_at > graceStart) continue; // unclaimed, or still in the grace its claim started
        if (p.last_at !== null && p.last_at >= presentSince) continue;
        await updateListing(trx, id, { lane: 'dormant', lane_reason: 'talk_absent' }, nowIso);
        absent++;
      }
    }
    if (absent) log.info({ count: absent }, 'listings went dormant: no talk check-in');
  },
});
