// Every environment variable Rollcall reads, parsed once. Names are fixed by DESIGN.md
// "Configuration"; tunables of our own are named here and in the README's table.
import { z } from 'zod';
import path from 'node:path';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true');

const count = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const positive = (fallback: number) => z.coerce.number().positive().default(fallback);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: optionalText,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalText,
  REDIS_URL: optionalText,
  REDIS_PREFIX: z.string().min(1).max(64).default('rollcall:'),
  PROBE_ALLOW_PRIVATE: flag,
  PROBE_DELAY_S: count(0),
  PROBE_INTERVAL_H: positive(6),
  TALK_GRACE_DAYS: count(7),
  ADMIN_TOKEN: optionalText,
  RATE_LIMIT_READ_PER_MIN: count(600),
  RATE_LIMIT_WRITE_PER_MIN: count(120),
  TRUST_PROXY: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Our own tunables (DESIGN.md "Other tunables").
  BODY_LIMIT_BYTES: count(64 * 1024),
  ACTIVE_CACHE_MS: count(2000),
  PROBE_CONNECT_TIMEOUT_MS: positive(5000),
  PROBE_TIMEOUT_MS: positive(10000),
  PROBE_MAX_BODY_BYTES: positive(1024 * 1024),
  PROBE_CONCURRENCY: positive(4),
  PROBE_PER_HOST: positive(2),
  PROBE_RATE_PER_MIN: count(10),
  SCORE_CACHE_S: count(60),
  PROBE_BACKOFF_S: positive(300),
  JOB_TICK_S: count(5),
  JOB_LEASE_S: positive(180),
  SWEEP_INTERVAL_S: positive(60),
  CHANGES_KEEP_H: positive(168),
  SNAPSHOT_KEEP_S: positive(900),
});

export type Config = {
  port: number;
  host: string;
  publicBaseUrl: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix: string;
  probeAllowPrivate: boolean;
  probeDelayS: number;
  probeIntervalH: number;
  talkGraceDays: number;
  adminToken?: string;
  rateLimitReadPerMin: number;
  rateLimitWritePerMin: number;
  trustProxy?: string;
  logLevel: string;
  bodyLimitBytes: number;
  activeCacheMs: number;
  probeConnectTimeoutMs: number;
  probeTimeoutMs: number;
  probeMaxBodyBytes: number;
  probeConcurrency: number;
  probePerHost: number;
  probeRatePerMin: number;
  scoreCacheS: number;
  probeBackoffS: number;
  jobTickS: number;
  jobLeaseS: number;
  sweepIntervalS: number;
  changesKeepH: number;
  snapshotKeepS: number;
  version: string;
};

export const VERSION = '0.1.0';

export class ConfigError extends Error {}

/** Parses the environment (or a test's overrides) into a Config, naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.DATABASE_URL && !/^postgres(ql)?:\/\//.test(e.DATABASE_URL)) {
    throw new ConfigError('invalid configuration: DATABASE_URL must start with postgres:// or postgresql://');
  }
  const base = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  try {
    new URL(base);
  } catch {
    throw new ConfigError('invalid configuration: PUBLIC_BASE_URL must be an absolute URL');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: base,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    probeAllowPrivate: e.PROBE_ALLOW_PRIVATE,
    probeDelayS: e.PROBE_DELAY_S,
    probeIntervalH: e.PROBE_INTERVAL_H,
    talkGraceDays: e.TALK_GRACE_DAYS,
    adminToken: e.ADMIN_TOKEN,
    rateLimitReadPerMin: e.RATE_LIMIT_READ_PER_MIN,
    rateLimitWritePerMin: e.RATE_LIMIT_WRITE_PER_MIN,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    activeCacheMs: e.ACTIVE_CACHE_MS,
    probeConnectTimeoutMs: e.PROBE_CONNECT_TIMEOUT_MS,
    probeTimeoutMs: e.PROBE_TIMEOUT_MS,
    probeMaxBodyBytes: e.PROBE_MAX_BODY_BYTES,
    probeConcurrency: Math.floor(e.PROBE_CONCURRENCY),
    probePerHost: Math.floor(e.PROBE_PER_HOST),
    probeRatePerMin: e.PROBE_RATE_PER_MIN,
    scoreCacheS: e.SCORE_CACHE_S,
    probeBackoffS: e.PROBE_BACKOFF_S,
    jobTickS: e.JOB_TICK_S,
    jobLeaseS: e.JOB_LEASE_S,
    sweepIntervalS: e.SWEEP_INTERVAL_S,
    changesKeepH: e.CHANGES_KEEP_H,
    snapshotKeepS: e.SNAPSHOT_KEEP_S,
    version: VERSION,
  };
}
