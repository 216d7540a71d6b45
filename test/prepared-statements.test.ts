// Statements are prepared once and reused (src/platform/db/dialect.ts): on PostgreSQL a SQL text
// is a named statement parsed once per connection, on SQLite a cached prepared statement. Reused
// statements must still answer each call with its own parameters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { inTransaction } from '../src/platform/db/executor.ts';
import { engine, freshStore } from './helpers/store.ts';

test(`a statement run again is reused and answers with its own parameters (${engine})`, async () => {
  const store = await freshStore();
  try {
    await sql`create table reuse_probe (id integer primary key, label text not null)`.execute(store.db.kysely);
    // One connection (a transaction) so PostgreSQL's view of its prepared statements is this one's.
    const prepared = await inTransaction(store.db.kysely, async (trx) => {
      for (let i = 1; i <= 20; i++) await sql`insert into reuse_probe (id, label) values (${i}, ${`label ${i}`})`.execute(trx);
      const labels: string[] = [];
      for (const id of [3, 17, 3]) labels.push((await sql<{ label: string }>`select label from reuse_probe where id = ${id}`.execute(trx)).rows[0]!.label);
      assert.deepEqual(labels, ['label 3', 'label 17', 'label 3']);
      if (engine !== 'postgres') return [];
      const mine = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by statement`.execute(trx);
      return mine.rows.filter((p) => p.statement.includes('reuse_probe') && !p.statement.includes('pg_prepared_statements'));
    });
    if (engine === 'postgres') {
      // Twenty inserts and three selects: two statements, each parsed once, each named (the DDL is not).
      assert.deepEqual(
        prepared.map((p) => p.statement),
        ['insert into reuse_probe (id, label) values ($1, $2)', 'select label from reuse_probe where id = $1'],
      );
      for (const p of prepared) assert.match(p.name, /^rc_\d+$/);
    }
    const { rows } = await sql<{ n: number }>`select count(*) as n from reuse_probe`.execute(store.db.kysely);
    assert.equal(Number(rows[0]!.n), 20);
  } finally {
    await store.db.close();
    await store.drop();
  }
});

test(`a statement prepared before a migration added a column answers after it, with the column (${engine})`, async () => {
  const store = await freshStore();
  // A second instance's connection: it prepared the statement before the other one migrated.
  const other = store.connect();
  try {
    await sql`create table reuse_grow (id integer primary key, label text not null)`.execute(store.db.kysely);
    await sql`insert into reuse_grow (id, label) values (1, 'one')`.execute(store.db.kysely);
    const read = () => other.kysely.selectFrom('reuse_grow' as never).selectAll().where('id' as never, '=', 1 as never).execute();
    assert.deepEqual(await read(), [{ id: 1, label: 'one' }]);
    await sql`alter table reuse_grow add column note text`.execute(store.db.kysely);
    assert.deepEqual(await read(), [{ id: 1, label: 'one', note: null }]);
    assert.deepEqual(await read(), [{ id: 1, label: 'one', note: null }]);
    if (engine === 'postgres') {
      // Inside a transaction PostgreSQL has failed it already: that transaction sees the error, once.
      const inTrx = () => inTransaction(other.kysely, (trx) => trx.selectFrom('reuse_grow' as never).selectAll().where('label' as never, '=', 'one' as never).execute());
      assert.equal((await inTrx()).length, 1);
      await sql`alter table reuse_grow add column score integer`.execute(store.db.kysely);
      await assert.rejects(inTrx(), /cached plan must not change result type/);
      assert.deepEqual(await inTrx(), [{ id: 1, label: 'one', note: null, score: null }]);
    }
  } finally {
    await other.close();
    await store.db.close();
    await store.drop();
  }
});
