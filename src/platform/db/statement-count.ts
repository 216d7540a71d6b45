// What a database handle has sent to its engine: every statement, BEGIN and COMMIT included, and
// how many of them opened a transaction. Counted where the driver sends each one (a PostgreSQL
// connection's `query`, SQLite's `prepare`, which Kysely calls once per statement it runs), so
// nothing a layer above does is missed. A round trip is what a result costs on PostgreSQL, so the
// count is what the probe and publish paths are held to (test/statement-budget.test.ts) and what
// the throughput bench reports.

/** Statements that open a transaction (Kysely's two ways: `begin`, or `start transaction ...` with an isolation level). */
const OPENS = /^\s*(begin|start transaction)\b/i;

export interface StatementTally {
  statements: number;
  transactions: number;
}

export class StatementCount implements StatementTally {
  statements = 0;
  transactions = 0;

  /** Counts one statement sent (its SQL text tells whether it opened a transaction). */
  sent(text: string): void {
    this.statements++;
    if (OPENS.test(text)) this.transactions++;
  }

  /** The counts so far, to subtract from a later one (`since`). */
  mark(): StatementTally {
    return { statements: this.statements, transactions: this.transactions };
  }

  /** What was sent since `mark`. */
  since(mark: StatementTally): StatementTally {
    return { statements: this.statements - mark.statements, transactions: this.transactions - mark.transactions };
  }
}
