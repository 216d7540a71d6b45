// Every environment variable Rollcall reads, parsed once. Names are fixed by DESIGN.md
// "Configuration"; tunables of our own are named here and in docs/guide/configuration.md.
import { z } from 'zod';
import path from 'node:path';
import { isIP } from 'node:net';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true');
/** A flag that is on unless set to 0 or false. */
const flagOn = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('1')
  .transform((v) => v !== '0' && v !== 'false');

// Counts, sizes and durations are whole numbers: `count` where 0 means off (or none), `positive`
// where 0 makes no sense (PROBE_PER_HOST=0.5 would floor to 0 and stall every outbound call).
const count = (fallback: number) => z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').default(fallback);
const positive = (fallback: number) => z.coerce.number().int('must be a whole number').min(1, 'must be 1 or more').default(fallback);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: optionalText,
  OPERATOR_NAME: optionalText,
  REGISTRY_META_KEY: z
    .string()
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+(\/[a-zA-Z0-9._-]+)?$/, 'must be reverse-DNS, such as com.example.registry')
    .optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalText,
  REDIS_URL: optionalText,
  REDIS_PREFIX: z.string().min(1).max(64).default('rollcall:'),
  PROBE_ALLOW_PRIVATE: flag,
  PROBE_SIGNATURES: flagOn,
  PROBE_DELAY_S: count(0),
  PROBE_INTERVAL_H: positive(6),
  TALK_GRACE_DAYS: count(7),
  ADMIN_TOKEN: optionalText,
  X402_ENABLED: flag,
  X402_FACILITATOR_URL: optionalText,
  X402_PAY_TO: optionalText,
  X402_NETWORK: z.string().min(1).max(64).default('base-sepolia'),
  X402_ASSET: optionalText,
  X402_ASSET_NAME: optionalText,
  X402_ASSET_VERSION: z.string().min(1).max(16).default('2'),
  X402_ASSET_DECIMALS: z.coerce.number().int().min(2).max(18).default(6),
  X402_MAX_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(60),
  X402_TIMEOUT_MS: positive(15000),
  RATE_LIMIT_READ_PER_MIN: count(600),
  RATE_LIMIT_WRITE_PER_MIN: count(120),
  MCP_BATCH_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  MCP_BATCH_MAX_BYTES: z.coerce.number().int().min(1024).default(2 * 1024 * 1024),
  MCP_CONFORMANCE_TOOLS: flag,
  TRUST_PROXY: optionalText,
  // /metrics listens apart from the public port (platform/metrics-listener.ts); port 0 turns it off.
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_PORT: z.coerce.number().int('must be a whole number').min(0).max(65535).default(9464),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Our own tunables (DESIGN.md "Other tunables").
  BODY_LIMIT_BYTES: count(64 * 1024),
  ACTIVE_CACHE_MS: count(2000),
  STATUS_CACHE_MS: count(1000),
  PROBE_CONNECT_TIMEOUT_MS: positive(5000),
  PROBE_TIMEOUT_MS: positive(10000),
  COMPOSE_STEP_TIMEOUT_MS: positive(8000),
  COMPOSE_RUN_TIMEOUT_MS: positive(30000),
  PROBE_MAX_BODY_BYTES: positive(1024 * 1024),
  PROBE_CONCURRENCY: positive(32),
  PROBE_DEADLINE_S: positive(30),
  SEARCH_POLL_MS: count(1000),
  PROBE_SLOT_WAIT_MS: count(10000),
  PROBE_RETIRE_AFTER_H: positive(168),
  REPUBLISH_MIN_INTERVAL_S: count(300),
  // Outbound budgets per host key (platform/budget/host-budgets.ts): 0 turns one off.
  PROBE_HOST_PER_HOUR: count(600),
  PUBLISH_HOST_PER_DAY: count(20),
  CALLER_FETCHES_PER_HOUR: count(30),
  PROBE_PER_HOST: positive(2),
  PROBE_RATE_PER_MIN: count(10),
  SCORE_CACHE_S: count(60),
  PROBE_BACKOFF_S: positive(300),
  JOB_TICK_S: count(5),
  JOB_LEASE_S: positive(180),
  SWEEP_INTERVAL_S: positive(60),
  CHANGES_KEEP_H: positive(168),
  SNAPSHOT_KEEP_S: positive(900),
  // The registry catalog: an upstream registry that speaks the official MCP registry API.
  UPSTREAM_REGISTRY_URL: optionalText,
  CATALOG_SYNC_INTERVAL_S: positive(3600),
  CATALOG_SYNC_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(100),
  CATALOG_MAX_BODY_BYTES: positive(8 * 1024 * 1024),
  CATALOG_SYNC_LEASE_S: positive(300),
  CATALOG_SYNC_OVERLAP_S: count(300),
  CATALOG_SYNC_RETRY_S: positive(300),
  // Health checks of the catalog's remotes: checks run at once per instance (0 turns them off), and
  // checks the schedule starts per second per instance.
  CATALOG_CHECK_CONCURRENCY: count(4),
  CATALOG_CHECK_RATE: positive(20),
  // Proofs of control: the DNS resolvers asked for `_rollcall.<host>` TXT records (comma-separated
  // addresses, each with an optional :port; unset: the system's resolvers).
  CLAIM_DNS_SERVERS: optionalText,
  // Inbound A2A: answered tasks are kept this many days.
  A2A_TASK_KEEP_DAYS: positive(30),
  // The connector playbook: a partner picked within this many days is not picked again.
  CONNECTOR_REPEAT_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // Network economics: how often each instance adds its batched usage counts to the
  // database (0: only at shutdown and before get_platform_cost), how often the daily network_value
  // point is refreshed, and the unit costs get_platform_cost's estimate multiplies.
  USAGE_FLUSH_S: count(15),
  NETWORK_VALUE_INTERVAL_S: positive(900),
  COST_USD_PER_M_REQUESTS: z.coerce.number().min(0).default(0.5),
  COST_USD_PER_M_TOOL_CALLS: z.coerce.number().min(0).default(2),
  COST_USD_PER_K_PROBE_FETCHES: z.coerce.number().min(0).default(0.05),
  COST_USD_PER_M_ROWS_MONTH: z.coerce.number().min(0).default(0.25),
});

export type Config = {
  port: number;
  host: string;
  publicBaseUrl: string;
  /** OPERATOR_NAME: the name of whoever runs this Rollcall; no listing may wear it (nor "Rollcall"). */
  operatorName: string | undefined;
  /** REGISTRY_META_KEY: Rollcall's `_meta` key on `/v0.1` items (default: the public host, reversed). */
  registryMetaKey: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  redisPrefix: string;
  probeAllowPrivate: boolean;
  /** PROBE_SIGNATURES: outbound requests carry a Web Bot Auth signature (on unless set to 0). */
  probeSignatures: boolean;
  probeDelayS: number;
  probeIntervalH: number;
  talkGraceDays: number;
  adminToken?: string;
  /** Paid calls beyond the free allowance (SPEC.md 5.3); off unless X402_ENABLED=1. */
  x402: X402Config;
  rateLimitReadPerMin: number;
  /** Outbound requests to one host key per UTC hour (0: no budget). */
  probeHostPerHour: number;
  /** CALLER_FETCHES_PER_HOUR: verify_claim calls and scores of unknown URLs one caller asks for per UTC hour (0: no bound). */
  callerFetchesPerHour: number;
  /** New listings of one host key per UTC day from callers who do not own it (0: no budget). */
  publishHostPerDay: number;
  /** Messages a JSON-RPC batch may hold; a longer one is one -32600 answer, nothing run. */
  mcpBatchMax: number;
  /** Bytes a batch's answer may hold: messages past it answer an error instead of their result. */
  mcpBatchMaxBytes: number;
  /** MCP_CONFORMANCE_TOOLS=1: /api/mcp also serves the MCP conformance suite's diagnostic tools (2026-07-28 era; tests and conformance runs only). */
  mcpConformanceTools: boolean;
  rateLimitWritePerMin: number;
  trustProxy?: string;
  /** Where /metrics listens; port 0: nowhere. */
  metricsHost: string;
  metricsPort: number;
  /** METRICS_PORT was set: a taken port stops the start (the default one only costs the metrics). */
  metricsPortChosen: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  activeCacheMs: number;
  statusCacheMs: number;
  probeConnectTimeoutMs: number;
  probeTimeoutMs: number;
  /** execute_compose: the time one step may take, and the whole run. */
  composeStepTimeoutMs: number;
  composeRunTimeoutMs: number;
  probeMaxBodyBytes: number;
  probeConcurrency: number;
  probeDeadlineS: number;
  searchPollMs: number;
  probeSlotWaitMs: number;
  probeRetireAfterH: number;
  republishMinIntervalS: number;
  probePerHost: number;
  probeRatePerMin: number;
  scoreCacheS: number;
  probeBackoffS: number;
  jobTickS: number;
  jobLeaseS: number;
  sweepIntervalS: number;
  changesKeepH: number;
  snapshotKeepS: number;
  upstreamRegistryUrl?: string;
  catalogSyncIntervalS: number;
  /** Catalog remotes checked at once per instance; 0: the schedule checks none. */
  catalogCheckConcurrency: number;
  catalogCheckRate: number;
  catalogSyncPageSize: number;
  catalogMaxBodyBytes: number;
  catalogSyncLeaseS: number;
  catalogSyncOverlapS: number;
  catalogSyncRetryS: number;
  /** DNS resolvers for proofs of control (empty: the system's). */
  claimDnsServers: string[];
  a2aTaskKeepDays: number;
  connectorRepeatDays: number;
  usageFlushS: number;
  networkValueIntervalS: number;
  /** get_platform_cost's unit costs in USD. */
  unitCosts: UnitCosts;
  version: string;
};

export interface UnitCosts {
  perMillionRequests: number;
  perMillionToolCalls: number;
  perThousandProbeFetches: number;
  /** Storage: per million stored rows per 30-day month. */
  perMillionRowsMonth: number;
}

export interface X402Config {
  enabled: boolean;
  facilitatorUrl?: string;
  payTo?: string;
  /** x402 v1 network name (base-sepolia, base, ...) or a CAIP-2 id (eip155:84532). */
  network: string;
  /** The token paid in (an EIP-3009 ERC-20 such as USDC): its contract address and EIP-712 domain. */
  asset?: string;
  assetName?: string;
  assetVersion: string;
  /** Atomic units per whole token (USDC: 6), so a price in cents becomes `maxAmountRequired`. */
  assetDecimals: number;
  /** `maxTimeoutSeconds` offered to payers. */
  maxTimeoutS: number;
  /** Time limit of one facilitator call (/verify or /settle). */
  timeoutMs: number;
}

/** USDC on the networks x402 facilitators settle by default: used when X402_ASSET is unset. */
export const X402_KNOWN_ASSETS: Record<string, { asset: string; name: string }> = {
  'base-sepolia': { asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', name: 'USDC' },
  'eip155:84532': { asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', name: 'USDC' },
  base: { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', name: 'USD Coin' },
  'eip155:8453': { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', name: 'USD Coin' },
};

export const VERSION = '0.1.0';

export class ConfigError extends Error {}

/** CLAIM_DNS_SERVERS: IP addresses, each with an optional port (`1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`). */
function dnsServers(text: string | undefined): string[] {
  if (text === undefined) return [];
  const servers = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const server of servers) {
    const host = server.startsWith('[') ? server.slice(1, server.indexOf(']')) : server.replace(/:\d+$/, '');
    if (isIP(host) === 0) throw new ConfigError(`invalid configuration: CLAIM_DNS_SERVERS: ${JSON.stringify(server)} is not an IP address (with an optional :port)`);
  }
  return servers;
}

/** Parses the environment (or a test's overrides) into a Config, naming every bad variable. */
/**
 * The public host as a reverse-DNS `_meta` key (`rollcall.example.com` -> `com.example.rollcall`);
 * a host that names no domain (localhost, an address) gets `io.rollcall.local`.
 */
export function reverseDnsOf(base: string): string {
  const host = new URL(base).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) !== 0 || !host.includes('.') || host === 'localhost' || host.endsWith('.localhost')) return 'io.rollcall.local';
  return host.split('.').filter(Boolean).reverse().join('.');
}

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
  const upstream = e.UPSTREAM_REGISTRY_URL?.replace(/\/+$/, '');
  if (upstream !== undefined && !/^https?:\/\/[^/]/.test(upstream)) {
    throw new ConfigError('invalid configuration: UPSTREAM_REGISTRY_URL must be an absolute http(s) URL');
  }
  if (e.X402_ENABLED && (!e.X402_FACILITATOR_URL || !e.X402_PAY_TO)) {
    throw new ConfigError('invalid configuration: X402_ENABLED=1 needs X402_FACILITATOR_URL and X402_PAY_TO');
  }
  if (e.X402_FACILITATOR_URL !== undefined && !/^https?:\/\/[^/]/.test(e.X402_FACILITATOR_URL)) {
    throw new ConfigError('invalid configuration: X402_FACILITATOR_URL must be an absolute http(s) URL');
  }
  const known = X402_KNOWN_ASSETS[e.X402_NETWORK];
  const asset = e.X402_ASSET ?? known?.asset;
  if (e.X402_ENABLED && asset === undefined) {
    throw new ConfigError(`invalid configuration: X402_ENABLED=1 on network ${e.X402_NETWORK} needs X402_ASSET (the token's contract address)`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: base,
    operatorName: e.OPERATOR_NAME,
    registryMetaKey: e.REGISTRY_META_KEY ?? reverseDnsOf(base),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    probeAllowPrivate: e.PROBE_ALLOW_PRIVATE,
    probeSignatures: e.PROBE_SIGNATURES,
    probeDelayS: e.PROBE_DELAY_S,
    probeIntervalH: e.PROBE_INTERVAL_H,
    talkGraceDays: e.TALK_GRACE_DAYS,
    adminToken: e.ADMIN_TOKEN,
    x402: {
      enabled: e.X402_ENABLED,
      facilitatorUrl: e.X402_FACILITATOR_URL?.replace(/\/+$/, ''),
      payTo: e.X402_PAY_TO,
      network: e.X402_NETWORK,
      asset,
      assetName: e.X402_ASSET_NAME ?? (e.X402_ASSET === undefined ? known?.name : undefined),
      assetVersion: e.X402_ASSET_VERSION,
      assetDecimals: e.X402_ASSET_DECIMALS,
      maxTimeoutS: e.X402_MAX_TIMEOUT_S,
      timeoutMs: e.X402_TIMEOUT_MS,
    },
    rateLimitReadPerMin: e.RATE_LIMIT_READ_PER_MIN,
    probeHostPerHour: e.PROBE_HOST_PER_HOUR,
    callerFetchesPerHour: e.CALLER_FETCHES_PER_HOUR,
    publishHostPerDay: e.PUBLISH_HOST_PER_DAY,
    mcpBatchMax: e.MCP_BATCH_MAX,
    mcpBatchMaxBytes: e.MCP_BATCH_MAX_BYTES,
    mcpConformanceTools: e.MCP_CONFORMANCE_TOOLS,
    rateLimitWritePerMin: e.RATE_LIMIT_WRITE_PER_MIN,
    trustProxy: e.TRUST_PROXY,
    metricsHost: e.METRICS_HOST,
    metricsPort: e.METRICS_PORT,
    metricsPortChosen: env.METRICS_PORT !== undefined && env.METRICS_PORT !== '',
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    activeCacheMs: e.ACTIVE_CACHE_MS,
    statusCacheMs: e.STATUS_CACHE_MS,
    probeConnectTimeoutMs: e.PROBE_CONNECT_TIMEOUT_MS,
    probeTimeoutMs: e.PROBE_TIMEOUT_MS,
    composeStepTimeoutMs: e.COMPOSE_STEP_TIMEOUT_MS,
    composeRunTimeoutMs: e.COMPOSE_RUN_TIMEOUT_MS,
    probeMaxBodyBytes: e.PROBE_MAX_BODY_BYTES,
    probeConcurrency: Math.floor(e.PROBE_CONCURRENCY),
    probeDeadlineS: e.PROBE_DEADLINE_S,
    searchPollMs: e.SEARCH_POLL_MS,
    probeSlotWaitMs: e.PROBE_SLOT_WAIT_MS,
    probeRetireAfterH: e.PROBE_RETIRE_AFTER_H,
    republishMinIntervalS: e.REPUBLISH_MIN_INTERVAL_S,
    probePerHost: Math.floor(e.PROBE_PER_HOST),
    probeRatePerMin: e.PROBE_RATE_PER_MIN,
    scoreCacheS: e.SCORE_CACHE_S,
    probeBackoffS: e.PROBE_BACKOFF_S,
    jobTickS: e.JOB_TICK_S,
    jobLeaseS: e.JOB_LEASE_S,
    sweepIntervalS: e.SWEEP_INTERVAL_S,
    changesKeepH: e.CHANGES_KEEP_H,
    snapshotKeepS: e.SNAPSHOT_KEEP_S,
    upstreamRegistryUrl: upstream,
    catalogSyncIntervalS: e.CATALOG_SYNC_INTERVAL_S,
    catalogCheckConcurrency: e.CATALOG_CHECK_CONCURRENCY,
    catalogCheckRate: e.CATALOG_CHECK_RATE,
    catalogSyncPageSize: e.CATALOG_SYNC_PAGE_SIZE,
    catalogMaxBodyBytes: Math.floor(e.CATALOG_MAX_BODY_BYTES),
    catalogSyncLeaseS: e.CATALOG_SYNC_LEASE_S,
    catalogSyncOverlapS: e.CATALOG_SYNC_OVERLAP_S,
    catalogSyncRetryS: e.CATALOG_SYNC_RETRY_S,
    claimDnsServers: dnsServers(e.CLAIM_DNS_SERVERS),
    a2aTaskKeepDays: e.A2A_TASK_KEEP_DAYS,
    connectorRepeatDays: e.CONNECTOR_REPEAT_DAYS,
    usageFlushS: e.USAGE_FLUSH_S,
    networkValueIntervalS: e.NETWORK_VALUE_INTERVAL_S,
    unitCosts: {
      perMillionRequests: e.COST_USD_PER_M_REQUESTS,
      perMillionToolCalls: e.COST_USD_PER_M_TOOL_CALLS,
      perThousandProbeFetches: e.COST_USD_PER_K_PROBE_FETCHES,
      perMillionRowsMonth: e.COST_USD_PER_M_ROWS_MONTH,
    },
    version: VERSION,
  };
}
