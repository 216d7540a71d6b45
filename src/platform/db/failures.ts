// Which database errors are not the request's fault, and what to do about them. Every kind is a
// 503 with Retry-After for a request and a lease given back for a job; they differ in whether the
// transaction may simply run again (executor.ts):
// - `conflict`: PostgreSQL gave up on the transaction to let another go on (40P01 deadlock,
//   40001 serialization failure). Nothing of it was kept: it may run again, whole.
// - `disconnected`: PostgreSQL cannot be reached or the connection went away (refused, reset,
//   closed, admin or crash shutdown, not accepting connections, too many connections, a new
//   connection that timed out). It may run again if its COMMIT was not sent.
// - `unavailable`: the database is too busy to take the work now: SQLite busy past its busy
//   timeout (or out of disk, unable to open or write its file), or no PostgreSQL connection of the
//   pool came free within its wait (dialect.ts POOL_WAIT_MS). Not run again: the wait already waited.
// Part of the dialect seam: the codes of both engines live here and nowhere else.
export type DbFailure = 'conflict' | 'disconnected' | 'unavailable';

/**
 * Thrown inside a transaction whose write found that a concurrent one changed what it had read
 * (a key it meant to insert was taken in between): a `conflict`, so the transaction runs again,
 * whole, and reads anew. Only for what a race makes rare: each run costs a transaction.
 */
export class StaleRead extends Error {
  override readonly name = 'StaleRead';
}

const CONFLICT_CODES = new Set(['40P01', '40001']);
const DISCONNECTED_CODES = new Set([
  // PostgreSQL: class 08 (connection exception), shutdowns, refusals.
  '08000', '08001', '08003', '08004', '08006', '08007', '57P01', '57P02', '57P03', '53300',
  // Node sockets.
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
]);
/** node-postgres reports a lost connection, or one that could not be opened in time ("timeout expired"), in words, without a code. */
const DISCONNECTED_MESSAGES = /Connection terminated|connection timeout|^timeout expired$|Client has encountered a connection error|terminating connection due to/i;
/** node-postgres's pool, when no connection came free within its wait. */
const POOL_WAIT_MESSAGE = /^timeout exceeded when trying to connect$/;
/** better-sqlite3's codes (extended IOERR codes included). */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|FULL|IOERR|CANTOPEN|READONLY)/;

export function dbFailure(err: unknown): DbFailure | undefined {
  if (!err || typeof err !== 'object') return undefined;
  if (err instanceof StaleRead) return 'conflict';
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (CONFLICT_CODES.has(code)) return 'conflict';
    if (DISCONNECTED_CODES.has(code)) return 'disconnected';
    if (SQLITE_UNAVAILABLE.test(code)) return 'unavailable';
  }
  if (typeof message === 'string' && POOL_WAIT_MESSAGE.test(message)) return 'unavailable';
  if (typeof message === 'string' && DISCONNECTED_MESSAGES.test(message)) return 'disconnected';
  // An error wrapped by a library keeps the original as its cause.
  const cause = (err as { cause?: unknown }).cause;
  return cause && cause !== err ? dbFailure(cause) : undefined;
}
