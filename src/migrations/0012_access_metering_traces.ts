// Access tokens (hashed), metered usage and refill grants per caller and
// UTC day, free-form names per address, and the trace store (raw deposits plus the decayed field).
import type { Kysely, Migration } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';

export const m0012 = (db: Db): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('access_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('widened_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await k.schema.createIndex('access_tokens_listing').on('access_tokens').columns(['listing_id', 'revoked_at']).execute();

    await k.schema
      .createTable('meter_usage')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull())
      .addColumn('refilled', 'integer', (c) => c.notNull())
      .addColumn('paid', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('meter_usage_pk', ['subject', 'day', 'event_id'])
      .execute();
    await k.schema.createIndex('meter_usage_day').on('meter_usage').columns(['day', 'event_id']).execute();

    await k.schema
      .createTable('meter_grants')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('grants', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('meter_grants_pk', ['subject', 'day', 'action'])
      .execute();

    await k.schema
      .createTable('meter_names')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('meter_names_pk', ['address', 'day', 'name'])
      .execute();

    await k.schema
      .createTable('trace_deposits')
      .addColumn('id', db.serialType, (c) => (db.engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('subject_key', 'text', (c) => c.notNull())
      .addColumn('intensity', 'double precision', (c) => c.notNull())
      .addColumn('body', 'text')
      .addColumn('depositor', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('at_ms', 'double precision', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('trace_deposits_depositor').on('trace_deposits').columns(['depositor', 'day']).execute();
    await k.schema.createIndex('trace_deposits_at').on('trace_deposits').columns(['at_ms']).execute();
    await k.schema.createIndex('trace_deposits_subject').on('trace_deposits').columns(['subject_key', 'at_ms']).execute();

    await k.schema
      .createTable('trace_field')
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('subject_key', 'text', (c) => c.notNull())
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('a', 'text', (c) => c.notNull())
      .addColumn('b', 'text')
      .addColumn('value', 'double precision', (c) => c.notNull())
      .addColumn('at_ms', 'double precision', (c) => c.notNull())
      .addColumn('log_key', 'double precision', (c) => c.notNull())
      .addColumn('deposits', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('trace_field_pk', ['channel', 'subject_key'])
      .execute();
    await k.schema.createIndex('trace_field_strength').on('trace_field').columns(['channel', 'log_key']).execute();
    await k.schema.createIndex('trace_field_kind_strength').on('trace_field').columns(['channel', 'subject_kind', 'log_key']).execute();
    await k.schema.createIndex('trace_field_subject').on('trace_field').columns(['subject_key']).execute();
    await k.schema.createIndex('trace_field_a').on('trace_field').columns(['a', 'channel']).execute();
    await k.schema.createIndex('trace_field_b').on('trace_field').columns(['b', 'channel']).execute();
  },
});
