// The registry's counts in one read model (`rollcall stats`; the registry-wide badges use parts of
// it): listings by kind and lane, the catalog, the job queue, today's searches and the signing keys.
// Each count comes from the domain that owns the table.
import type { Executor } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import { queueStats } from '../platform/jobs/store.ts';
import { countListings } from '../listings/store.ts';
import { countCatalog } from '../catalog/store.ts';
import { countProbed } from '../probe/store.ts';
import { countFoundingVerified } from '../funnel/store.ts';
import { countBindings, describeSigningKeys } from '../identity/store.ts';
import { countQueriesSince } from '../search/store.ts';

/** Midnight UTC of `now`'s day (DESIGN.md "Time": all days are UTC days). */
export const utcDayStart = (now: Date): string => `${iso(now).slice(0, 10)}T00:00:00.000Z`;

export async function registryStats(ex: Executor, now: Date) {
  const [byKind, catalog, probed, founding, bound, queue, searches, keys] = await Promise.all([
    countListings(ex),
    countCatalog(ex),
    countProbed(ex),
    countFoundingVerified(ex),
    countBindings(ex),
    queueStats(ex, now),
    countQueriesSince(ex, utcDayStart(now)),
    describeSigningKeys(ex, now),
  ]);
  const sum = (lanes: Record<string, number>) => Object.values(lanes).reduce((a, b) => a + b, 0);
  const jobs = Object.fromEntries(queue.map((s) => [s.kind, { due: s.due, running: s.running, oldest_due_at: s.oldestDueAt }]));
  return {
    ok: true as const,
    at: iso(now),
    listings: {
      total: sum(byKind.agent) + sum(byKind.mcp),
      live: byKind.agent.active + byKind.mcp.active,
      by_kind: { agent: { total: sum(byKind.agent), ...byKind.agent }, mcp: { total: sum(byKind.mcp), ...byKind.mcp } },
      probed: probed.probed,
      checks_clean: probed.clean,
      founding_verified: founding,
      identity_bound: bound,
    },
    catalog,
    jobs: {
      due: queue.reduce((n, s) => n + s.due, 0),
      running: queue.reduce((n, s) => n + s.running, 0),
      by_kind: jobs,
    },
    search: { queries_today: searches, since: utcDayStart(now) },
    signing_keys: {
      published: keys.length,
      signing: keys.find((k) => k.signing)?.kid ?? null,
      keys,
    },
  };
}

export type RegistryStats = Awaited<ReturnType<typeof registryStats>>;
