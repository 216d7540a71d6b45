// The funnel: demos taken, founding seats (exactly 100: a counter row and a seat table
// whose seat number is unique and 1..100 and whose listing is unique), 25% discount codes (one per
// listing, stored hashed), the feedback the payments gate counts, and co-signs between founders.
// Access tokens get a partial unique index: one live token per listing, even under concurrency.
import { sql, type Kysely, type Migration } from 'kysely';

/** SPEC.md 8.3; written out, as a migration is history (funnel/deal.ts FOUNDING_SEATS says the same). */
const SEATS = 100;

export const m0022 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createIndex('access_tokens_live')
      .on('access_tokens')
      .column('listing_id')
      .unique()
      .where(sql.ref('revoked_at'), 'is', null)
      .execute();

    await k.schema
      .createTable('funnel_demos')
      .addColumn('listing_id', 'text', (c) => c.primaryKey())
      .addColumn('sku', 'text', (c) => c.notNull())
      .addColumn('kernel_id', 'text')
      .addColumn('composition_id', 'text')
      .addColumn('token_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await k.schema
      .createTable('founding_counter')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('taken', 'integer', (c) => c.notNull())
      .addCheckConstraint('founding_counter_range', sql`taken >= 0 and taken <= ${sql.lit(SEATS)}`)
      .execute();
    await k.insertInto('founding_counter').values({ name: 'seats', taken: 0 }).execute();

    await k.schema
      .createTable('founding_seats')
      .addColumn('seat', 'integer', (c) => c.primaryKey())
      .addColumn('listing_id', 'text', (c) => c.notNull().unique())
      .addColumn('feedback_id', 'text', (c) => c.notNull())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addCheckConstraint('founding_seats_range', sql`seat >= 1 and seat <= ${sql.lit(SEATS)}`)
      .execute();

    await k.schema
      .createTable('discount_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('listing_id', 'text', (c) => c.notNull().unique())
      .addColumn('hint', 'text', (c) => c.notNull())
      .addColumn('percent_off', 'integer', (c) => c.notNull())
      .addColumn('feedback_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('redeemed_at', 'text')
      .execute();

    await k.schema
      .createTable('funnel_feedback')
      .addColumn('feedback_id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('funnel_feedback_kind').on('funnel_feedback').column('kind').execute();

    await k.schema
      .createTable('founding_cosigns')
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('partner_listing_id', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('founding_cosigns_pk', ['listing_id', 'partner_listing_id'])
      .execute();
    await k.schema.createIndex('founding_cosigns_partner').on('founding_cosigns').columns(['partner_listing_id', 'listing_id']).execute();
    await k.schema.createIndex('founding_cosigns_created').on('founding_cosigns').column('created_at').execute();
  },
});
