// The database handle every layer passes around. It knows no tables: a domain sees its own tables
// only through `typed<Tables>()` with the table types in its own `tables.ts`, which no other folder
// may import (dependency rules in .dependency-cruiser.cjs). So a query on another domain's table
// does not type-check outside that domain's folder.
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import { dbFailure } from './failures.ts';

/** A database with no tables visible (platform and doors never name a domain's table). */
// eslint-style note: `{}` here means "no tables", not "any object".
export type NoTables = Record<never, never>;

export type Executor = Kysely<NoTables> | Transaction<NoTables>;

/** The executor seen with one domain's (or platform part's) tables. */
export const typed = <Tables>(ex: Executor): Kysely<Tables> => ex as unknown as Kysely<Tables>;

/** Whole attempts of one transaction before its failure goes to the caller (a 503 for a request). */
export const TRANSACTION_ATTEMPTS = 4;

export interface TransactionOptions {
  /** Every read sees the database as of the first one (PostgreSQL REPEATABLE READ; a SQLite transaction already does). */
  snapshot?: boolean;
  /**
   * Running it twice leaves the same state as once, so it may run again even when the connection
   * was lost after COMMIT was sent (whether that COMMIT took is then unknown).
   */
  idempotent?: boolean;
}

/**
 * Runs `work` in the caller's transaction when there is one, else in a new one. A new one that
 * PostgreSQL aborts to break a deadlock or a serialization conflict runs again, whole, up to
 * TRANSACTION_ATTEMPTS times with a short random pause; so does one whose connection was lost
 * before its COMMIT was sent (the server rolled it back), or after, when it is idempotent. Any
 * other failure, or the last, goes to the caller. `work` may therefore run more than once: what
 * it does outside the transaction must bear that.
 */
export async function inTransaction<T>(db: Executor, work: (trx: Transaction<NoTables>) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<NoTables>);
  for (let attempt = 1; ; attempt++) {
    let committing = false;
    try {
      let begin = (db as Kysely<NoTables>).transaction();
      if (options.snapshot && takesRowLocks(db)) begin = begin.setIsolationLevel('repeatable read');
      return await begin.execute(async (trx) => {
        const result = await work(trx);
        committing = true;
        return result;
      });
    } catch (err) {
      const failure = dbFailure(err);
      const again = failure === 'conflict' || (failure === 'disconnected' && (!committing || options.idempotent === true));
      if (!again || attempt >= TRANSACTION_ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, (5 + Math.random() * 20) * 2 ** attempt));
    }
  }
}

/**
 * Whether this executor can take row locks (`FOR UPDATE`): PostgreSQL can; SQLite has one writer
 * at a time, so a transaction there is already alone. Part of the dialect seam.
 */
export const takesRowLocks = (ex: Executor): boolean => ex.getExecutor().adapter instanceof PostgresAdapter;
