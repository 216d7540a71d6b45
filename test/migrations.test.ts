// Migration 0004 moves probe, talk and funnel state out of the listings row: every existing value
// must arrive in its new table, and the rank must stay what it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { migratorFor, underMigrationLock } from '../src/platform/db/migrate.ts';
import type { Db } from '../src/platform/db/dialect.ts';
import { freshStore, engine } from './helpers/app.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { allTables } from './helpers/tables.ts';

/** Migrates up to `name`, as the app's migrate does: in the test's own schema, under the migration lock. */
async function migrateTo(db: Db, name: string) {
  const migrator = await migratorFor(db, schemaHistory(db));
  return underMigrationLock(db, () => migrator.migrateTo(name));
}

test(`0004 keeps every listing's data (${engine})`, async () => {
  const store = await freshStore();
  try {
    const { db } = store;
    const to3 = await migrateTo(db, '0003_jobs_history_snapshots');
    assert.equal(to3.error, undefined);
    const old = db.kysely as unknown as Kysely<any>;
    // Every column given on every row (SQLite has no DEFAULT in a multi-row VALUES).
    const base = { kind: 'mcp', description: '', checks_clean: 0, probe_ok: 0, demoed: 0, feedbacked: 0, founding_verified: 0, category_id: 'code-devtools', created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-02T00:00:00.000Z' };
    await old
      .insertInto('listings')
      .values([
        // Live, probed, checked in, founding verified: 120 + 88.
        { ...base, id: 'lst_a', url: 'https://a.example/mcp', name: 'A', lane: 'active', checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 88, probed_at: '2026-11-02T00:00:00.000Z', probe_target: 'https://a.example/mcp', probe_detail: 'ok', probe_protocol: '2025-11-25', probe_latency_ms: 12, probe_report: '{"checks":[]}', capabilities: '{"names":["x"]}', demoed: 1, feedbacked: 1, founding_verified: 1, rank: 208, live_since: '2026-11-01T00:00:00.000Z', talk_last_at: '2026-11-02T00:00:00.000Z' },
        // Demoed, no feedback, failed probe: -5 + 10.
        { ...base, id: 'lst_b', url: 'https://b.example/mcp', name: 'B', lane: 'failed', lane_reason: 'unreachable', probe_ok: 0, probe_handshake: 'failed', probe_score: 10, probed_at: '2026-11-02T00:00:00.000Z', demoed: 1, rank: 5 },
        // Never probed: -15.
        { ...base, id: 'lst_c', url: 'https://c.example/mcp', name: 'C', lane: 'queued', rank: -15 },
      ])
      .execute();

    const to4 = await migrateTo(db, '0004_domain_tables');
    assert.equal(to4.error, undefined);
    assert.deepEqual(to4.results?.map((r) => r.migrationName), ['0004_domain_tables']);
    const sql = allTables(db);
    const listings = await sql.selectFrom('listings').select(['id', 'rank', 'rank_parts', 'lane', 'capabilities', 'live_since']).orderBy('id').execute();
    assert.deepEqual(
      listings.map((l) => [l.id, l.rank, JSON.parse(l.rank_parts)]),
      [
        ['lst_a', 208, { funnel: 120, probe: 88 }],
        ['lst_b', 5, { funnel: -5, probe: 10 }],
        ['lst_c', -15, { funnel: -15 }],
      ],
    );
    assert.equal(listings[0]!.capabilities, '{"names":["x"]}');
    const probes = await sql.selectFrom('probe_state').selectAll().orderBy('listing_id').execute();
    assert.deepEqual(probes, [
      { listing_id: 'lst_a', ok: 1, handshake: 'ok', score: 88, probed_at: '2026-11-02T00:00:00.000Z', target: 'https://a.example/mcp', detail: 'ok', protocol: '2025-11-25', latency_ms: 12, report: '{"checks":[]}', checks_clean: 1 },
      { listing_id: 'lst_b', ok: 0, handshake: 'failed', score: 10, probed_at: '2026-11-02T00:00:00.000Z', target: null, detail: null, protocol: null, latency_ms: null, report: null, checks_clean: 0 },
    ]);
    assert.deepEqual(await sql.selectFrom('talk_presence').selectAll().execute(), [{ listing_id: 'lst_a', last_at: '2026-11-02T00:00:00.000Z' }]);
    assert.deepEqual(await sql.selectFrom('funnel_state').selectAll().orderBy('listing_id').execute(), [
      { listing_id: 'lst_a', demoed: 1, feedbacked: 1, founding_verified: 1, updated_at: '2026-11-02T00:00:00.000Z' },
      { listing_id: 'lst_b', demoed: 1, feedbacked: 0, founding_verified: 0, updated_at: '2026-11-02T00:00:00.000Z' },
    ]);
    const columns = Object.keys((await old.selectFrom('listings').selectAll().where('id', '=', 'lst_a').executeTakeFirstOrThrow()) as object);
    for (const gone of ['probe_score', 'talk_last_at', 'demoed', 'checks_clean']) assert.ok(!columns.includes(gone), `${gone} left listings`);
  } finally {
    await store.db.close();
    await store.drop();
  }
});

test(`0006 gives every listing its spelling; of two spellings listed before, the older keeps it (${engine})`, async () => {
  const store = await freshStore();
  try {
    const { db } = store;
    assert.equal((await migrateTo(db, '0005_job_fairness')).error, undefined);
    const old = db.kysely as unknown as Kysely<any>;
    const row = (id: string, url: string, created_at: string) => ({ id, url, created_at, updated_at: created_at, kind: 'mcp', name: id, description: '', category_id: 'code-devtools', lane: 'queued', rank: 0, rank_parts: '{}' });
    await old
      .insertInto('listings')
      .values([row('lst_old', 'https://d.example/mcp', '2026-11-01T00:00:00.000Z'), row('lst_new', 'https://d.example/mcp/', '2026-11-02T00:00:00.000Z'), row('lst_q', 'https://d.example/mcp?x=1', '2026-11-03T00:00:00.000Z')])
      .execute();
    assert.equal((await migrateTo(db, '0006_listing_identity')).error, undefined);
    const aliases = await allTables(db).selectFrom('listing_aliases').select(['key', 'listing_id']).orderBy('key').execute();
    assert.deepEqual(aliases, [
      { key: 'https://d.example/mcp', listing_id: 'lst_old' },
      { key: 'https://d.example/mcp?x=1', listing_id: 'lst_q' },
    ]);
    const dup = await allTables(db).selectFrom('listings').select(['duplicate_of']).where('id', '=', 'lst_new').executeTakeFirstOrThrow();
    assert.equal(dup.duplicate_of, null, 'nothing is marked a duplicate until a probe shows it');
  } finally {
    await store.db.close();
    await store.drop();
  }
});

test(`0028-0032 settle what exists: tenants' owner domains and groups, tokens of earlier owners, and names that collide (${engine})`, async () => {
  const store = await freshStore();
  try {
    const { db } = store;
    assert.equal((await migrateTo(db, '0027_budget_counters')).error, undefined);
    const old = db.kysely as unknown as Kysely<any>;
    const at = '2026-11-01T00:00:00.000Z';
    const row = (id: string, url: string, name: string, owner_name: string | null = null) => ({ id, url, name, owner_name, created_at: at, updated_at: at, kind: 'mcp', description: '', category_id: 'code-devtools', lane: 'active', rank: 0, rank_parts: '{}' });
    await old
      .insertInto('listings')
      .values([
        row('lst_x', 'https://x.alice.github.io/mcp', 'Harbor'),
        row('lst_y', 'https://y.bob.github.io/mcp', 'Quay', 'HARB0R'),
        row('lst_z', 'https://z.example.org/mcp', 'Harbor'),
        row('lst_r', 'https://r.example.net/mcp', 'Rollcall Support'),
      ])
      .execute();
    const owner = (listing_id: string, token_id: string, claimed_at: string) => ({ listing_id, token_hash: `hash-${token_id}`, token_id, method: 'dns_txt', owner_domain: 'github.io', proof: 'p', claimed_at, checked_at: claimed_at, next_check_at: '2026-12-01T00:00:00.000Z', missing_since: null, lapsed_at: null });
    await old.insertInto('listing_owners').values([owner('lst_x', 'own_x', '2026-11-02T00:00:00.000Z'), owner('lst_y', 'own_y', '2026-11-03T00:00:00.000Z')]).execute();
    await old.insertInto('founding_seats').values({ seat: 1, listing_id: 'lst_x', feedback_id: 'fb_1', token_id: 'tok_x2', owner_domain: 'github.io', created_at: at }).execute();
    await old.insertInto('funnel_feedback').values({ feedback_id: 'fb_1', kind: 'mcp', listing_id: 'lst_x', owner_domain: 'github.io', created_at: at }).execute();
    const token = (id: string, listing_id: string, created_at: string) => ({ id, hash: `h-${id}`, listing_id, holder: `listing:${listing_id}`, scope: 'full', created_at, widened_at: null, revoked_at: null });
    // lst_x's first token predates its current claim (an earlier owner's); its second is the owner's.
    await old.insertInto('access_tokens').values([token('tok_x1', 'lst_x', '2026-11-01T12:00:00.000Z'), token('tok_y1', 'lst_y', '2026-11-04T00:00:00.000Z')]).execute();
    await old.updateTable('access_tokens').set({ revoked_at: '2026-11-02T00:00:00.000Z' }).where('id', '=', 'tok_x1').execute();
    await old.insertInto('access_tokens').values(token('tok_x2', 'lst_x', '2026-11-01T13:00:00.000Z')).execute();

    const latest = await migrateTo(db, '0032_listing_names');
    assert.equal(latest.error, undefined);
    const sql = allTables(db);
    const owners = await sql.selectFrom('listing_owners').select(['listing_id', 'owner_domain']).orderBy('listing_id').execute();
    assert.deepEqual(owners, [
      { listing_id: 'lst_x', owner_domain: 'alice.github.io' },
      { listing_id: 'lst_y', owner_domain: 'bob.github.io' },
    ]);
    assert.deepEqual(await sql.selectFrom('founding_seats').select(['owner_domain', 'owner_group']).execute(), [{ owner_domain: 'alice.github.io', owner_group: 'github.io' }]);
    assert.deepEqual(await sql.selectFrom('funnel_feedback').select(['owner_domain', 'owner_group']).execute(), [{ owner_domain: 'alice.github.io', owner_group: 'github.io' }]);
    const tokens = await sql.selectFrom('access_tokens').select(['id', 'claim_id', 'revoked_at']).orderBy('id').execute();
    assert.deepEqual(
      tokens.map((t) => [t.id, t.claim_id, t.revoked_at !== null]),
      [
        ['tok_x1', null, true],
        ['tok_x2', null, true],
        ['tok_y1', 'own_y', false],
      ],
      'a live token older than its listing\'s claim is revoked; a newer one takes the claim',
    );
    // Names: the earlier claim keeps "Harbor"; the later one's look-alike display name goes, its card's
    // name stays; the unclaimed wearers of a held name or Rollcall's show their hosts.
    const held = await sql.selectFrom('listing_names').select(['name_key', 'listing_id']).orderBy('listing_id').execute();
    assert.deepEqual(held, [
      { name_key: 'harbor', listing_id: 'lst_x' },
      { name_key: 'quay', listing_id: 'lst_y' },
    ]);
    const listings = await sql.selectFrom('listings').select(['id', 'owner_name', 'name_withheld']).orderBy('id').execute();
    assert.deepEqual(listings, [
      { id: 'lst_r', owner_name: null, name_withheld: 'Rollcall Support' },
      { id: 'lst_x', owner_name: null, name_withheld: null },
      { id: 'lst_y', owner_name: null, name_withheld: null },
      { id: 'lst_z', owner_name: null, name_withheld: 'Harbor' },
    ]);
  } finally {
    await store.db.close();
    await store.drop();
  }
});

test(`0033 marks each stored server's semver-newest version latest, whatever was marked before (${engine})`, async () => {
  const store = await freshStore();
  try {
    const { db } = store;
    assert.equal((await migrateTo(db, '0032_listing_names')).error, undefined);
    const old = db.kysely as unknown as Kysely<any>;
    const at = '2026-11-01T00:00:00.000Z';
    const version = (name: string, v: string, is_latest: number, status = 'active') => ({ name, version: v, server_json: '{}', status, is_latest, published_at: at, updated_at: at, synced_at: at });
    await old
      .insertInto('catalog_servers')
      .values([
        // A file of the old seed marked every version latest; the last loaded kept the mark.
        version('io.example/a', '1.10.0', 0),
        version('io.example/a', '1.9.0', 1),
        version('io.example/b', '2.0.0', 0, 'deleted'),
        version('io.example/b', '1.0.0', 1),
        version('io.example/c', '0.1.0', 1),
      ])
      .execute();
    assert.equal((await migrateTo(db, '0033_catalog_latest_semver')).error, undefined);
    const marks = await allTables(db).selectFrom('catalog_servers').select(['name', 'version', 'is_latest']).orderBy('name').orderBy('version').execute();
    assert.deepEqual(
      marks.map((m) => `${m.name}@${m.version}:${Number(m.is_latest)}`),
      ['io.example/a@1.10.0:1', 'io.example/a@1.9.0:0', 'io.example/b@1.0.0:1', 'io.example/b@2.0.0:0', 'io.example/c@0.1.0:1'],
    );
  } finally {
    await store.db.close();
    await store.drop();
  }
});
