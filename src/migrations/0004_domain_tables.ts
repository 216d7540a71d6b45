// Each domain owns its data (docs/architecture.md): probe results, talk presence and funnel state
// move out of the listings row into tables of their own, every existing row's data kept. The
// listing's rank becomes the sum of named parts (funnel rank_delta + probe score), so a domain
// changes its own share without reading another's.
import { sql, type Kysely, type Migration } from 'kysely';

const MOVED = [
  'probe_ok',
  'probe_handshake',
  'probe_score',
  'probed_at',
  'probe_target',
  'probe_detail',
  'probe_protocol',
  'probe_latency_ms',
  'probe_report',
  'checks_clean',
  'talk_last_at',
  'demoed',
  'feedbacked',
  'founding_verified',
];

export const m0004 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('probe_state')
      .addColumn('listing_id', 'text', (c) => c.primaryKey())
      .addColumn('ok', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('handshake', 'text')
      .addColumn('score', 'integer')
      .addColumn('probed_at', 'text')
      .addColumn('target', 'text')
      .addColumn('detail', 'text')
      .addColumn('protocol', 'text')
      .addColumn('latency_ms', 'integer')
      .addColumn('report', 'text')
      .addColumn('checks_clean', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await k
      .insertInto('probe_state')
      .columns(['listing_id', 'ok', 'handshake', 'score', 'probed_at', 'target', 'detail', 'protocol', 'latency_ms', 'report', 'checks_clean'])
      .expression(
        k
          .selectFrom('listings')
          .select(['id', 'probe_ok', 'probe_handshake', 'probe_score', 'probed_at', 'probe_target', 'probe_detail', 'probe_protocol', 'probe_latency_ms', 'probe_report', 'checks_clean'])
          .where((eb) => eb.or([eb('probed_at', 'is not', null), eb('probe_handshake', 'is not', null)])),
      )
      .execute();

    await k.schema
      .createTable('talk_presence')
      .addColumn('listing_id', 'text', (c) => c.primaryKey())
      .addColumn('last_at', 'text', (c) => c.notNull())
      .execute();
    await k
      .insertInto('talk_presence')
      .columns(['listing_id', 'last_at'])
      .expression(k.selectFrom('listings').select(['id', 'talk_last_at']).where('talk_last_at', 'is not', null))
      .execute();

    await k.schema
      .createTable('funnel_state')
      .addColumn('listing_id', 'text', (c) => c.primaryKey())
      .addColumn('demoed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('feedbacked', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('founding_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await k
      .insertInto('funnel_state')
      .columns(['listing_id', 'demoed', 'feedbacked', 'founding_verified', 'updated_at'])
      .expression(
        k
          .selectFrom('listings')
          .select(['id', 'demoed', 'feedbacked', 'founding_verified', 'updated_at'])
          .where((eb) => eb.or([eb('demoed', '=', 1), eb('feedbacked', '=', 1), eb('founding_verified', '=', 1)])),
      )
      .execute();

    // The rank_delta of each badge as it stood at this migration (funnel/badge.ts RANK_DELTA).
    await k.schema.alterTable('listings').addColumn('rank_parts', 'text', (c) => c.notNull().defaultTo('{}')).execute();
    const delta = sql`case when founding_verified = 1 then 120 when feedbacked = 1 then 0 when demoed = 1 then -5 else -15 end`;
    await sql`update listings set rank_parts = '{"funnel":' || cast(${delta} as text) || case when probe_score is null then '' else ',"probe":' || cast(probe_score as text) end || '}'`.execute(k);

    for (const column of MOVED) await k.schema.alterTable('listings').dropColumn(column).execute();
  },
});
