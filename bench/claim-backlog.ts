// A fair claim in a big backlog: 100,000 probe jobs due at once, as after an outage or a
// bulk import, on SQLite and PostgreSQL. Milliseconds per claim (claimDue, the runner's own call)
// when the head of the queue spreads over many hosts (the baseline), and when one host's jobs
// crowd the head: at its cap, or with room for some of them. Ratios are to the baseline of the
// same run. `BENCH_CLAIM_N` (default 100,000), `BENCH_CLAIM_CROWD` (default 20,000: the crowding
// host's jobs, all due before the others).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDb, type Db } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { claimDue } from '../src/platform/jobs/store/claim-due.ts';
import { newJobRow, q } from '../src/platform/jobs/store/job-row.ts';
import { median, round } from './stats.ts';
import { benchDatabase } from './pg-database.ts';

const N = Number(process.env.BENCH_CLAIM_N ?? 100_000);
const CROWD = Number(process.env.BENCH_CLAIM_CROWD ?? 20_000);
const HOSTS = 1_000;
const CAP = 2;
const ROUNDS = 15;
const T0 = Date.parse('2026-11-01T12:00:00.000Z');

/** N due probe jobs: `crowd` of them on one host, due after all the others; the rest spread over HOSTS. */
async function fill(db: Db, crowd: number) {
  const created = new Date(T0).toISOString();
  for (let start = 0; start < N; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(N, start + 500); i++) {
      const group = i < crowd ? 'crowd.example' : `host-${i % HOSTS}.example`;
      const due = i < crowd ? T0 + N + i : T0 + i;
      rows.push(newJobRow({ id: `probe:${String(i).padStart(7, '0')}`, kind: 'probe', subject: null, group }, new Date(due).toISOString(), created));
    }
    await q(db.kysely).insertInto('jobs').values(rows).execute();
  }
  await analyze(db);
}

/** PostgreSQL plans by its statistics, which autovacuum keeps up to date; a fresh table has none yet. */
const analyze = async (db: Db) => {
  if (db.engine === 'postgres') await sql`analyze jobs`.execute(db.kysely);
};

/** Median ms of ROUNDS claims of `limit` jobs; each claim's leases are handed back so every round sees the same queue. */
async function claimMs(db: Db, limit: number, room: [string, number][]) {
  const now = new Date(T0 + N + 1000);
  const ms: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    const leases = await claimDue(db, now, 60_000, limit, { kind: 'probe', groupCap: CAP, groupRoom: new Map(room) });
    ms.push(performance.now() - started);
    if (leases.length !== limit) throw new Error(`a claim of ${limit} leased ${leases.length}`);
    await q(db.kysely)
      .updateTable('jobs')
      .set({ lease_token: null, lease_until: null })
      .where('id', 'in', leases.map((l) => l.id))
      .execute();
  }
  return round(median(ms), 2);
}

async function measure(db: Db) {
  await migrateToLatest(db, schemaHistory(db));
  await fill(db, CROWD);
  const atCap: [string, number][] = [['crowd.example', 0]];
  // A freed slot claims one job; a pool that was idle claims its 32 slots at once. First the
  // baseline: the crowding host's jobs are due last, so the head spreads over many hosts.
  const spread = { claim_1: await claimMs(db, 1, atCap), claim_32: await claimMs(db, 32, atCap) };
  // Then the crowding host's jobs come due first (as a platform's listings published together).
  await sql`update jobs set due_at = ${new Date(T0 - 1000).toISOString()} where group_key = 'crowd.example'`.execute(db.kysely);
  await analyze(db);
  const crowded = {
    at_cap_claim_1: await claimMs(db, 1, atCap),
    at_cap_claim_32: await claimMs(db, 32, atCap),
    with_room_claim_32: await claimMs(db, 32, []),
  };
  return {
    ms_per_claim: { spread, crowded },
    ratio_to_spread: {
      at_cap_claim_1: round(crowded.at_cap_claim_1 / spread.claim_1, 1),
      at_cap_claim_32: round(crowded.at_cap_claim_32 / spread.claim_32, 1),
      with_room_claim_32: round(crowded.with_room_claim_32 / spread.claim_32, 1),
    },
  };
}

export async function benchClaimBacklog() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-claim-'));
  const sqlite = openDb({ dataDir });
  const results: Record<string, unknown> = { due_jobs: N, crowding_host_jobs: CROWD, hosts: HOSTS, group_cap: CAP, rounds: ROUNDS };
  try {
    results.sqlite = await measure(sqlite);
  } finally {
    await sqlite.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const database = await benchDatabase(`rc_bench_claim_${process.pid}`);
  const postgres = openDb({ databaseUrl: database.url, dataDir: os.tmpdir() });
  try {
    results.postgres = await measure(postgres);
  } finally {
    await postgres.close();
    await database.drop();
  }
  return results;
}
