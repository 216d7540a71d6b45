// The database handle every layer passes around. It knows no tables: a domain sees its own tables
// only through `typed<Tables>()` with the table types in its own `tables.ts`, which no other folder
// may import (dependency rules in .dependency-cruiser.cjs). So a query on another domain's table
// does not type-check outside that domain's folder.
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';

/** A database with no tables visible (platform and doors never name a domain's table). */
// eslint-style note: `{}` here means "no tables", not "any object".
export type NoTables = Record<never, never>;

export type Executor = Kysely<NoTables> | Transaction<NoTables>;

/** The executor seen with one domain's (or platform part's) tables. */
export const typed = <Tables>(ex: Executor): Kysely<Tables> => ex as unknown as Kysely<Tables>;

/** Runs `work` in the caller's transaction when there is one, else in a new one. */
export function inTransaction<T>(db: Executor, work: (trx: Transaction<NoTables>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<NoTables>) : (db as Kysely<NoTables>).transaction().execute(work);
}

/**
 * Whether this executor can take row locks (`FOR UPDATE`): PostgreSQL can; SQLite has one writer
 * at a time, so a transaction there is already alone. Part of the dialect seam.
 */
export const takesRowLocks = (ex: Executor): boolean => ex.getExecutor().adapter instanceof PostgresAdapter;
