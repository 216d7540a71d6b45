// Builds the HTTP application: services, error model, doors. main.ts starts it; tests inject into it.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Writable } from 'node:stream';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { openDb, type Db } from './platform/db/dialect.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import { requestId } from './platform/ids.ts';
import { loggerOptions } from './platform/log.ts';
import { Metrics } from './platform/metrics.ts';
import { COUNTERS, UsageCounters } from './platform/usage/counters.ts';
import { closeRedis, openRedis } from './platform/redis.ts';
import { metricsListener, type MetricsListener } from './platform/metrics-listener.ts';
import { openHostBudgets } from './platform/budget/host-budgets.ts';
import type { JobRunner } from './platform/jobs/runner.ts';
import { schemaHistory } from './migrations/index.ts';
import { assemble, type AssemblyOptions, type Services } from './services.ts';
import { operations } from './catalog.ts';
import { sendError } from './http/errors.ts';
import { clientErrorHandler, frameworkErrors, registerTransportErrors } from './http/transport-errors.ts';
import { registerHealth } from './http/health.ts';
import { registerRateLimit, RequestLimits } from './http/rate-limit.ts';
import { registerRest } from './http/rest.ts';
import { MCP_ENDPOINT_PATHS, registerMcp } from './http/mcp.ts';
import { A2A_PATH } from './http/discovery/paths.ts';
import { registerA2a } from './http/a2a/door.ts';
import { registerDiscovery } from './http/discovery/index.ts';
import { registerIdentityDocs } from './http/identity-docs.ts';
import { signProbes } from './identity/probe-signing.ts';
import { registerRegistryApi } from './http/registry-api.ts';
import { registerBadges } from './http/badges.ts';
import { registerPages } from './http/pages/index.ts';
import { registerSearchMetrics } from './search/metrics.ts';
import { closeFacilitator } from './metering/facilitator.ts';

export interface AppOptions extends AssemblyOptions {
  config: Config;
  clock?: Clock;
  /** An already open database (tests share one between instances); otherwise one is opened from config. */
  db?: Db;
  /** Where logs go (default stdout); tests read them to prove secrets are redacted. */
  logStream?: Writable;
}

export interface App {
  http: FastifyInstance;
  services: Services;
  /** The leased job runner of this instance (its tick also runs on a timer unless JOB_TICK_S=0). */
  jobs: JobRunner;
  /** /metrics, on a listener of its own (`rollcall serve` starts it on METRICS_HOST:METRICS_PORT); closed with the app. */
  metrics: MetricsListener;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const ownsDb = !options.db;
  const db = options.db ?? openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(db, schemaHistory(db));

  const http = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req) => requestId(req.headers['x-request-id']),
    trustProxy: config.trustProxy ?? false,
    return503OnClosing: true,
    frameworkErrors,
    clientErrorHandler,
  });
  if (config.probeAllowPrivate) {
    http.log.warn('PROBE_ALLOW_PRIVATE=1: the prober reaches loopback and private addresses on any port. For development and tests only, never in production.');
  }
  if (config.mcpConformanceTools) {
    http.log.warn('MCP_CONFORMANCE_TOOLS=1: /api/mcp also serves the MCP conformance suite\'s diagnostic tools to 2026-07-28 clients. For tests and conformance runs only, never in production.');
  }
  const redis = config.redisUrl ? openRedis(config.redisUrl, http.log) : undefined;
  const clock = options.clock ?? systemClock;
  const usage = new UsageCounters(db.kysely, clock, (err) => http.log.warn({ err }, 'usage counters not stored yet; kept for the next flush'));
  const base = { config, db, clock, log: http.log, metrics: new Metrics(), redis, usage, budgets: openHostBudgets(config, db.kysely, clock, redis) };
  const { services, jobs } = assemble(base, options);

  // Only JSON bodies are accepted; anything else is a 415, not a silent string.
  http.removeContentTypeParser('text/plain');
  registerTransportErrors(http);
  http.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  http.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    services.metrics.requests.inc({ route, status: `${Math.floor(reply.statusCode / 100)}xx` });
    services.metrics.requestSeconds.observe({ route }, reply.elapsedTime / 1000);
    usage.count(COUNTERS.requests);
  });
  http.setErrorHandler((err, request, reply) => sendError(err, request, reply));
  // Shutdown cuts probes in flight instead of waiting out their time limits; their jobs are handed
  // back unfinished for another instance (or the next start) to run.
  const metrics = metricsListener(services.metrics.registry);
  http.addHook('onClose', async () => {
    await metrics.close();
    jobs.stop();
    await services.search.stop();
    await Promise.all([services.probe.prober.abort(), services.probe.checker.abort()]);
    await services.probe.scheduler.close();
    await jobs.close();
    await usage.stop();
    await closeFacilitator(config);
    if (redis) await closeRedis(redis);
    if (ownsDb) await db.close();
  });

  const limits = new RequestLimits(config, clock, redis);
  registerRateLimit(http, limits, { jsonRpc: [...MCP_ENDPOINT_PATHS, A2A_PATH] });
  registerHealth(http, services);
  registerRest(http, services);
  const mcpPost = registerMcp(http, services, operations, limits);
  registerA2a(http, services, operations, limits, mcpPost);
  // Documents are built once at start: the agent card signed with the current key, the _mcp TXT
  // record from its public half (after `rotate-key`, restart within the key overlap: docs/decisions/signing-keys.md).
  registerDiscovery(http, services, operations, {
    signAgentCard: async (card) => [await services.identity.signAgentCard(card)],
    mcpDnsTxt: () => services.identity.mcpDnsTxt(),
  });
  registerIdentityDocs(http, services);
  registerRegistryApi(http, services);
  registerBadges(http, services);
  registerPages(http, services);
  await jobs.prepare();
  await services.probe.prober.prepare();
  // Before the jobs start, so the first probe already carries the signature.
  const stopSigning = await signProbes(config, services.identity, [services.probe.prober, services.probe.checker]);
  http.addHook('onClose', async () => stopSigning());
  // The search index is this instance's own: built before the first request, then following the change feed.
  const built = await services.search.hydrate();
  http.log.info(built, 'search index built');
  registerSearchMetrics(services.metrics.registry, services.search, built.ms);
  services.search.start();
  usage.start(config.usageFlushS * 1000);
  jobs.start();
  return { http, services, jobs, metrics };
}
