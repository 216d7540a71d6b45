// The SQLite checkpointer: the write-ahead log is copied back by a worker thread, and closing leaves
// a clean database file. SQLite only (it is SQLite's mechanism), so it runs the same on both engines' runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDb } from './dialect.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-checkpointer-'));

test('a checkpoint off the event loop copies the whole log back; the main connection no longer checkpoints at 1,000 pages', async () => {
  const dataDir = tempDir();
  // No timed checkpoint during the test: it asks for the one it checks.
  const db = openDb({ dataDir, sqliteCheckpointMs: 3_600_000 });
  try {
    await sql`create table t (id integer primary key, body text not null)`.execute(db.kysely);
    // Each insert commits on its own: well past SQLite's default automatic threshold of 1,000 pages.
    for (let i = 0; i < 1500; i++) await sql`insert into t (body) values (${'x'.repeat(3000)})`.execute(db.kysely);
    const walBytes = fs.statSync(path.join(dataDir, 'registry.db-wal')).size;
    assert.ok(walBytes > 1000 * 4096, `the log grew to ${walBytes} bytes: nothing checkpointed on the event loop`);
    const result = await db.checkpointNow!();
    assert.equal(result.busy, 0);
    assert.ok(result.log >= 1500, JSON.stringify(result));
    assert.equal(result.checkpointed, result.log);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely);
    assert.equal(Number(rows[0]!.n), 1500);
  } finally {
    await db.close();
  }
  // Closed last, the main connection removes the log: everything is in the database file.
  assert.equal(fs.existsSync(path.join(dataDir, 'registry.db-wal')), false);
  const again = openDb({ dataDir });
  try {
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(again.kysely);
    assert.equal(Number(rows[0]!.n), 1500);
  } finally {
    await again.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a database closed before its first checkpoint never starts a worker, and closing twice is harmless', async () => {
  const dataDir = tempDir();
  const db = openDb({ dataDir });
  await sql`select 1`.execute(db.kysely);
  await db.close();
  await db.close().catch(() => undefined);
  await assert.rejects(db.checkpointNow!(), /not running/);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the timer checkpoints by itself: the writes reach the database file while it stays open', async () => {
  const dataDir = tempDir();
  const db = openDb({ dataDir, sqliteCheckpointMs: 50 });
  try {
    await sql`create table t (id integer primary key, body text not null)`.execute(db.kysely);
    for (let i = 0; i < 1500; i++) await sql`insert into t (body) values (${'y'.repeat(3000)})`.execute(db.kysely);
    const fileBytes = () => fs.statSync(path.join(dataDir, 'registry.db')).size;
    const deadline = Date.now() + 10_000;
    while (fileBytes() < 1500 * 3000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(fileBytes() >= 1500 * 3000, `the database file holds ${fileBytes()} bytes`);
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('closing while a checkpoint is answered waits for the worker to exit (nothing else keeps the process alive)', async () => {
  const dataDir = tempDir();
  const db = openDb({ dataDir, sqliteCheckpointMs: 3_600_000 });
  await sql`create table t (id integer primary key)`.execute(db.kysely);
  const pending = db.checkpointNow!();
  await db.close();
  assert.equal((await pending).busy, 0);
  fs.rmSync(dataDir, { recursive: true, force: true });
});
