// Builds the HTTP application: services, error model, doors. main.ts starts it; tests inject into it.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Writable } from 'node:stream';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { openDb, type Db } from './platform/db/dialect.ts';
import { migrateToLatest } from './platform/db/migrations.ts';
import { requestId } from './platform/ids.ts';
import { loggerOptions } from './platform/log.ts';
import type { Services } from './platform/operation.ts';
import { LeasedProbeScheduler, type ProbeScheduler } from './probe/scheduler.ts';
import type { Prober } from './probe/prober.ts';
import { createProber } from './probe/factory.ts';
import { ProbeJob } from './probe/job.ts';
import { OnDemandProbes } from './probe/budget.ts';
import { JobRunner } from './jobs/runner.ts';
import { SweepJob, SWEEP_JOB } from './jobs/sweep.ts';
import { ensureJob } from './jobs/store.ts';
import { iso } from './platform/clock.ts';
import { Metrics } from './platform/metrics.ts';
import { operations } from './catalog.ts';
import { sendError } from './http/errors.ts';
import { registerHealth } from './http/health.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { registerRest } from './http/rest.ts';
import { registerMcp } from './http/mcp.ts';
import { registerOpenApi } from './http/openapi.ts';

export interface AppOptions {
  config: Config;
  clock?: Clock;
  /** An already open database (tests share one between instances); otherwise one is opened from config. */
  db?: Db;
  /** Replaces the probe scheduler (tests watch what publish wakes). */
  probes?: ProbeScheduler;
  /** Replaces the prober (tests inject one whose guarded client has a test resolver or policy). */
  prober?: Prober;
  /** Where logs go (default stdout); tests read them to prove secrets are redacted. */
  logStream?: Writable;
}

export interface App {
  http: FastifyInstance;
  services: Services;
  /** The leased job runner of this instance (its tick also runs on a timer unless JOB_TICK_S=0). */
  jobs: JobRunner;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const ownsDb = !options.db;
  const db = options.db ?? openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db);

  const http = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req) => requestId(req.headers['x-request-id']),
    trustProxy: config.trustProxy ?? false,
    return503OnClosing: true,
  });
  const prober = options.prober ?? createProber(config);
  const base = {
    config,
    db,
    clock: options.clock ?? systemClock,
    log: http.log,
    prober,
    onDemand: new OnDemandProbes(config.probeRatePerMin),
    metrics: new Metrics(),
  };
  const jobs = new JobRunner(base, { probe: new ProbeJob(base), sweep: new SweepJob(base) }, {
    concurrency: config.probeConcurrency,
    leaseMs: config.jobLeaseS * 1000,
    tickS: config.jobTickS,
  });
  const probes = options.probes ?? new LeasedProbeScheduler(jobs, (err) => http.log.error({ err }, 'probe wake-up failed'));
  const services: Services = { ...base, probes };

  // Only JSON bodies are accepted; anything else is a 415, not a silent string.
  http.removeContentTypeParser('text/plain');
  http.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  http.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    base.metrics.requests.inc({ route, status: `${Math.floor(reply.statusCode / 100)}xx` });
    base.metrics.requestSeconds.observe({ route }, reply.elapsedTime / 1000);
  });
  http.setErrorHandler((err, request, reply) => sendError(err, request, reply));
  http.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ ok: false, error: { code: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0]}` }, request_id: request.id }),
  );
  // Shutdown cuts probes in flight instead of waiting out their time limits; their jobs are handed
  // back unfinished for another instance (or the next start) to run.
  http.addHook('onClose', async () => {
    jobs.stop();
    await prober.abort();
    await services.probes.close();
    await jobs.close();
    if (ownsDb) await db.close();
  });

  await registerRateLimit(http, config);
  registerHealth(http, services);
  registerRest(http, services);
  registerMcp(http, services, operations);
  registerOpenApi(http, services);
  await ensureJob(db.kysely, SWEEP_JOB, iso(services.clock.now()));
  jobs.start();
  return { http, services, jobs };
}
