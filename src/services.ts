// The app's assembly point: builds the services bundle (platform services plus each domain's
// runtime objects) and registers every domain's job kinds and periodic tasks with the runner.
// A new domain adds its runtime here and its jobs below: one line each.
import type { BaseServices } from './platform/operation.ts';
import { JobRunner } from './platform/jobs/runner.ts';
import type { PeriodicTask } from './platform/jobs/runner.ts';
import { iso, HOUR_MS } from './platform/clock.ts';
import { pruneChanges } from './platform/db/changes.ts';
import { pruneBudgetCounters } from './platform/budget/counters.ts';
import type { ProbeRuntime } from './probe/runtime.ts';
import type { Prober } from './probe/prober.ts';
import { createServiceChecker, createServiceProber } from './probe/factory.ts';
import { OnDemandProbes, ProbeBudget } from './probe/budget.ts';
import { MemoryWindow, RedisWindow } from './platform/rate-window.ts';
import { ProbeMetrics } from './probe/metrics.ts';
import { ProbeJob } from './probe/job.ts';
import { LeasedProbeScheduler, PROBE_JOB, type ProbeScheduler } from './probe/scheduler.ts';
import { pruneSnapshotsTask } from './listings/tasks.ts';
import { dormancyTask } from './talk/tasks.ts';
import { pruneCountersTask, refreshTrailsTask } from './traces/tasks.ts';
import { IdentityRuntime } from './identity/runtime.ts';
import { CATALOG_SYNC_JOB, CatalogSyncJob, catalogSyncTask } from './catalog/job.ts';
import { CATALOG_CHECK_JOB, CatalogCheckJob, catalogCheckTask } from './probe/catalog-check.ts';
import { SearchIndex } from './search/index-runtime.ts';
import { CapabilityIndex, type MeshRuntime } from './mesh/capability-index.ts';
import { pruneA2aTasksTask } from './a2a/retention.ts';
import { networkValueTask } from './economics/tasks.ts';
import type { OwnersRuntime } from './owners/runtime.ts';
import { pruneClaimsTask } from './owners/tasks.ts';
import { pruneInboxCountersTask } from './inbox/tasks.ts';
import { ClaimRecheckJob, claimRecheckTask, OWNER_RECHECK_JOB } from './registry/claim-recheck.ts';
import { txtLookup } from './platform/net/txt.ts';
import { COUNTERS } from './platform/usage/counters.ts';

/** Everything an operation's ctx may carry: platform services and each domain's runtime. */
export interface Services extends BaseServices {
  probe: ProbeRuntime;
  owners: OwnersRuntime;
  identity: IdentityRuntime;
  search: SearchIndex;
  mesh: MeshRuntime;
}

export interface AssemblyOptions {
  /** Replaces the probe scheduler (tests watch what publish wakes). */
  probes?: ProbeScheduler;
  /** Replaces the prober (tests inject one whose guarded client has a test resolver or policy). */
  prober?: Prober;
  /** Replaces the catalog checks' prober, as `prober`. */
  checker?: Prober;
}

/** Budget periods two days old are of no use (platform's own periodic work). */
const pruneBudgetsTask = (base: BaseServices): PeriodicTask => ({
  name: 'platform.prune_budgets',
  periodS: Math.max(base.config.sweepIntervalS, 3600),
  run: (trx, now) => pruneBudgetCounters(trx, iso(new Date(now.getTime() - 2 * 24 * HOUR_MS)).slice(0, 10)),
});

/** The change feed is kept for CHANGES_KEEP_H (platform's own periodic work). */
const pruneChangesTask = (base: BaseServices): PeriodicTask => ({
  name: 'platform.prune_changes',
  periodS: base.config.sweepIntervalS,
  run: (trx, now) => pruneChanges(trx, iso(new Date(now.getTime() - base.config.changesKeepH * HOUR_MS))),
});

export function assemble(base: BaseServices, options: AssemblyOptions = {}): { services: Services; jobs: JobRunner } {
  const { config } = base;
  const jobs = new JobRunner(base, { leaseMs: config.jobLeaseS * 1000, tickS: config.jobTickS, sweepIntervalS: config.sweepIntervalS, retryAfterFailureMs: config.probeBackoffS * 1000 });
  const callerWindow = base.redis ? new RedisWindow(base.redis, `${config.redisPrefix}budget:`) : new MemoryWindow();
  const probe: ProbeRuntime = {
    prober: options.prober ?? createServiceProber(config, { onLost: (err) => base.log.error({ err }, 'the probe thread stopped: probes now run on the event loop') }),
    checker: options.checker ?? createServiceChecker(config, { onLost: (err) => base.log.error({ err }, 'the check thread stopped: catalog checks now run on the event loop') }),
    onDemand: new OnDemandProbes(new ProbeBudget(config.probeRatePerMin, callerWindow)),
    scheduler: options.probes ?? new LeasedProbeScheduler(jobs),
    metrics: new ProbeMetrics(base.metrics.registry),
    slot: (waitMs) => jobs.acquire(PROBE_JOB, waitMs),
  };
  // Every outbound fetch a probe makes counts toward get_platform_cost (batched, in memory).
  probe.prober.observeFetches(() => base.usage.count(COUNTERS.probeFetches));
  const search = new SearchIndex(base.db.kysely, base.log, { pollMs: config.searchPollMs });
  const owners: OwnersRuntime = { txt: txtLookup({ servers: config.claimDnsServers, timeoutMs: config.probeConnectTimeoutMs }) };
  const services: Services = { ...base, probe, owners, identity: new IdentityRuntime(base), search, mesh: { capabilities: new CapabilityIndex() } };

  jobs.define(PROBE_JOB, new ProbeJob(base, probe), { concurrency: config.probeConcurrency, groupCap: config.probePerHost });
  jobs.every(pruneChangesTask(base));
  jobs.every(pruneBudgetsTask(base));
  jobs.every(pruneSnapshotsTask(config));
  jobs.every(dormancyTask(config, base.log));
  jobs.every(pruneCountersTask(config));
  jobs.every(refreshTrailsTask(config));
  jobs.define(CATALOG_SYNC_JOB, new CatalogSyncJob(base), { concurrency: 1 });
  jobs.every(catalogSyncTask(config));
  if (config.catalogCheckConcurrency > 0) {
    jobs.define(CATALOG_CHECK_JOB, new CatalogCheckJob(base, probe.checker, { listingProbesRunning: () => jobs.runningByKind()[PROBE_JOB] ?? 0 }), { concurrency: 1 });
    jobs.every(catalogCheckTask(config));
  }
  jobs.every(pruneA2aTasksTask(config));
  jobs.every(networkValueTask(config));
  jobs.every(pruneClaimsTask(config));
  jobs.every(pruneInboxCountersTask(config));
  jobs.define(OWNER_RECHECK_JOB, new ClaimRecheckJob(services), { concurrency: 1 });
  jobs.every(claimRecheckTask(config));
  return { services, jobs };
}
