// Statements sent together: a write path that needs several independent statements (a probe's
// result touches a dozen tables) pays one round trip for them on PostgreSQL instead of one each.
// Each domain still writes its own SQL: its store hands out a `Part` (the statement, not run yet,
// and how to read what it returns), and the caller sends the parts of several stores at once.
//
// PostgreSQL: one statement whose WITH clause holds every part (data-modifying statements may
// stand there) and whose single row carries each part's rows as JSON. SQLite has no data-modifying
// WITH: there the parts run one after another, in the order given, on the same connection.
//
// What the parts must respect, since on PostgreSQL they run as one statement: none depends on what
// another writes (each sees the database as it was when the statement began; a part that reads
// rows another changes must come first, so SQLite, running them in turn, reads them as they were
// too), and no two change the same row. Row locks (`FOR UPDATE`) taken by a part hold until the
// transaction ends, as usual.
import { sql, type Compilable, type Kysely, type OperationNodeSource, type RawBuilder } from 'kysely';
import { takesRowLocks, type Executor, type NoTables } from './executor.ts';

/** A statement a store builds without running it: a Kysely select, insert, update or delete. */
export type Statement = Compilable<unknown> & OperationNodeSource;

type Row = Record<string, unknown>;

export interface Part<T> {
  /** Nothing to send: the part's value is `read([])`. */
  readonly statement?: Statement;
  /** The part's value from its rows (its SELECT or RETURNING rows; none without RETURNING). May throw: the caller's transaction then rolls back. */
  read(rows: Row[]): T;
}

/** A part that sends `statement` and reads its rows with `read`. */
export const part = <T>(statement: Statement, read: (rows: Row[]) => T): Part<T> => ({ statement, read });

/** A part that sends nothing: its value is known already. */
export const known = <T>(value: T): Part<T> => ({ read: () => value });

/** A part that sends `statement` and has no value of its own. */
export const write = (statement: Statement): Part<void> => ({ statement, read: () => undefined });

/** A part whose value is `f` of `p`'s (a refusal may throw there: the caller's transaction then rolls back). */
export const mapPart = <T, U>(p: Part<T>, f: (value: T) => U): Part<U> => ({ ...(p.statement ? { statement: p.statement } : {}), read: (rows) => f(p.read(rows)) });

type Values<P extends readonly Part<unknown>[]> = { [K in keyof P]: P[K] extends Part<infer T> ? T : never };

/** Whether the statement gives rows back (a select, or a write with RETURNING). */
function returnsRows(statement: Statement): boolean {
  const node = statement.toOperationNode() as { kind: string; returning?: unknown };
  return node.kind === 'SelectQueryNode' || node.returning !== undefined;
}

/**
 * Sends the parts' statements (one statement on PostgreSQL, one each on SQLite) and returns each
 * part's value, in order. Parts that send nothing cost nothing.
 */
export async function together<const P extends readonly Part<unknown>[]>(ex: Executor, parts: P): Promise<Values<P>> {
  const sending = parts.flatMap((p, i) => (p.statement ? [{ i, statement: p.statement }] : []));
  const rows: Row[][] = parts.map(() => []);
  if (sending.length > 1 && takesRowLocks(ex)) {
    let query = (ex as Kysely<NoTables>) as unknown as Kysely<Record<string, Row>>;
    const columns: RawBuilder<unknown>[] = [];
    for (const { i, statement } of sending) {
      const name = `part${i}`;
      query = query.with(name, () => statement as never) as never;
      // A part without rows cannot be selected from; PostgreSQL runs it all the same.
      if (returnsRows(statement)) columns.push(sql`(select coalesce(json_agg(${sql.table(name)}), '[]'::json) from ${sql.table(name)})`.as(name) as never);
    }
    const select = query.selectNoFrom(columns.length ? (columns as never) : [sql<number>`1`.as('none')]);
    const [answer] = (await select.execute()) as unknown as Record<string, Row[] | undefined>[];
    for (const { i } of sending) rows[i] = answer?.[`part${i}`] ?? [];
  } else {
    for (const { i, statement } of sending) rows[i] = (await ex.executeQuery(statement.compile())).rows as Row[];
  }
  return parts.map((p, i) => p.read(rows[i]!)) as Values<P>;
}
