// The services bundle for commands that run operations in this process (list, search), on the
// configured database. No job pool runs and nothing polls: a command does its one thing and
// closes what it opened.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { Config } from '../config.ts';
import { systemClock } from '../platform/clock.ts';
import { loggerOptions, type Logger } from '../platform/log.ts';
import { Metrics } from '../platform/metrics.ts';
import { openHostBudgets } from '../platform/budget/host-budgets.ts';
import { UsageCounters } from '../platform/usage/counters.ts';
import type { Ctx } from '../platform/operation.ts';
import type { ProbeScheduler } from '../probe/scheduler.ts';
import { createChecker, createProber } from '../probe/factory.ts';
import { assemble, type Services } from '../services.ts';
import type { Io } from './command.ts';
import { openDatabase } from './database.ts';

/** Logs go to stderr (stdout is the command's answer), at LOG_LEVEL when it is set, else warnings only. */
export function cliLogger(config: Config, io: Io): Logger {
  const level = io.env.LOG_LEVEL ? config.logLevel : 'warn';
  // Fastify builds the same pino logger, with the same redaction, that the server uses.
  return Fastify({ logger: loggerOptions(level, io.err) }).log;
}

/** Publishing wakes nobody: the command runs its own listing's probe (probe/run-here.ts) or leaves it to a server. */
const noWakeUps: ProbeScheduler = { wake: () => {}, close: async () => {} };

export interface Local {
  services: Services;
  /** An operation's ctx for the operator at this terminal. */
  ctx(): Ctx & Services;
  close(): Promise<void>;
}

/** The services bundle a server would build, on the configured database, without its pools and timers. */
export async function openLocal(config: Config, io: Io): Promise<Local> {
  const { db } = await openDatabase(config);
  const base = {
    config,
    db,
    clock: systemClock,
    log: cliLogger(config, io),
    metrics: new Metrics(false),
    usage: new UsageCounters(db.kysely, systemClock),
    budgets: openHostBudgets(config, db.kysely, systemClock),
  };
  // One probe at a time here: it runs on this thread (a probe thread would cost more to start than it saves).
  const { services, jobs } = assemble(base, { probes: noWakeUps, prober: createProber(config), checker: createChecker(config) });
  return {
    services,
    // The probe budget and the metering key on the caller's address: the terminal is one caller.
    ctx: () => ({ ...services, caller: { address: 'cli' }, requestId: `cli-${randomUUID()}` }),
    async close() {
      jobs.stop();
      await services.search.stop();
      await jobs.close();
      await services.usage.stop();
      await Promise.all([services.probe.prober.close(), services.probe.checker.close()]);
      await db.close();
    },
  };
}
