// Statements sent together (together.ts) and the count of what a handle sends (statement-count.ts),
// against the engine of this run: on PostgreSQL the parts go as one statement, on SQLite one each,
// and either way every part's rows come back to it, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { engine, freshStore } from '../../../test/helpers/store.ts';
import { inTransaction } from './executor.ts';
import { known, mapPart, part, together, write } from './together.ts';

interface Tables {
  tg_items: { id: number; label: string; n: number };
  tg_counts: { key: string; n: number };
}

test(`parts of several tables, with and without rows, go as one statement on PostgreSQL and one each on SQLite (${engine})`, async () => {
  const store = await freshStore();
  try {
    const k = store.db.kysely as unknown as Kysely<Tables>;
    await sql`create table tg_items (id integer primary key, label text not null, n bigint not null)`.execute(k);
    await sql`create table tg_counts (key text primary key, n integer not null)`.execute(k);
    await k.insertInto('tg_counts').values([{ key: 'a', n: 5 }, { key: 'b', n: 5 }]).execute();
    const mark = store.db.sent.mark();
    const values = await inTransaction(store.db.kysely, (trx) => {
      const t = trx as unknown as Kysely<Tables>;
      const locked = t.selectFrom('tg_counts').selectAll().where('key', '=', 'a');
      return together(trx, [
        part(t.insertInto('tg_items').values({ id: 1, label: 'one', n: 2 ** 40 }).returningAll(), (rows) => rows),
        write(t.insertInto('tg_items').values({ id: 2, label: 'two', n: 3 })),
        part(engine === 'postgres' ? locked.forUpdate() : locked, (rows) => rows[0]),
        known('given'),
        mapPart(part(t.updateTable('tg_counts').set({ n: 9 }).where('key', '=', 'none').returning('n'), (rows) => rows.length), (n) => `${n} updated`),
        part(t.updateTable('tg_counts').set({ n: sql`n + 1` }).where('key', '=', 'b').returning('n'), (rows) => Number(rows[0]?.n)),
      ] as const);
    });
    assert.deepEqual(values, [[{ id: 1, label: 'one', n: 2 ** 40 }], undefined, { key: 'a', n: 5 }, 'given', '0 updated', 6]);
    // BEGIN, the parts, COMMIT: every statement the driver sent, counted where it sends them.
    assert.deepEqual(store.db.sent.since(mark), { statements: engine === 'postgres' ? 3 : 7, transactions: 1 });
    assert.deepEqual(await k.selectFrom('tg_items').select(['id', 'label']).orderBy('id').execute(), [
      { id: 1, label: 'one' },
      { id: 2, label: 'two' },
    ]);
  } finally {
    await store.db.close();
    await store.drop();
  }
});

test(`a part that refuses rolls its batch back with the transaction; parts that send nothing cost nothing (${engine})`, async () => {
  const store = await freshStore();
  try {
    const k = store.db.kysely as unknown as Kysely<Tables>;
    await sql`create table tg_counts (key text primary key, n integer not null)`.execute(k);
    const mark = store.db.sent.mark();
    assert.deepEqual(await together(store.db.kysely, [known(1), known(2)]), [1, 2]);
    assert.deepEqual(store.db.sent.since(mark), { statements: 0, transactions: 0 });
    await assert.rejects(
      inTransaction(store.db.kysely, (trx) =>
        together(trx, [
          write((trx as unknown as Kysely<Tables>).insertInto('tg_counts').values({ key: 'kept?', n: 1 })),
          part((trx as unknown as Kysely<Tables>).selectFrom('tg_counts').select('n').where('key', '=', 'missing'), (rows) => {
            if (!rows.length) throw new Error('refused');
          }),
        ]),
      ),
      /refused/,
    );
    assert.deepEqual(await k.selectFrom('tg_counts').selectAll().execute(), []);
  } finally {
    await store.db.close();
    await store.drop();
  }
});
