// Log messages an operation sends its caller while it works (MCP's per-request logging, 2026-07-28).
// A door that can deliver them opens a log for a request that asked for a level (`ctx.response.log`);
// a message below that level is dropped here, and without an open log every message is: a request
// that asked for no level is sent none.

/** The syslog severities (RFC 5424), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const isLogLevel = (v: unknown): v is LogLevel => typeof v === 'string' && (LOG_LEVELS as readonly string[]).includes(v);

export interface ClientLogMessage {
  level: LogLevel;
  /** Which part of Rollcall speaks (a tool's name). */
  logger?: string;
  /** Whatever JSON says it; never a credential, a token or anything that names a person. */
  data: unknown;
}

/** The messages one request collects: those at or above the level it asked for. */
export interface ClientLog {
  level: LogLevel;
  messages: ClientLogMessage[];
}

/** The most messages one request is sent: a tool that logs more loses the rest, not the caller its stream. */
export const MAX_CLIENT_LOG_MESSAGES = 100;

/** Whether a message at `level` reaches a caller that asked for `threshold` and above. */
export const atOrAbove = (level: LogLevel, threshold: LogLevel) => LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);

/** Sends a log message to the caller, if its request asked for this level or a lower one. */
export function clientLog(ctx: { response?: { log?: ClientLog } }, level: LogLevel, data: unknown, logger?: string): void {
  const log = ctx.response?.log;
  if (!log || !atOrAbove(level, log.level) || log.messages.length >= MAX_CLIENT_LOG_MESSAGES) return;
  log.messages.push({ level, ...(logger !== undefined ? { logger } : {}), data });
}
