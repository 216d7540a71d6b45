// Signed identity: the deployment's Ed25519 signing keys (one row per key, a unique
// generation so concurrent instances creating the first key, or rotating, end with one row), the
// challenges bind_identity issues, and the key each listing has bound.
import type { Kysely, Migration } from 'kysely';

export const m0007 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('signing_keys')
      .addColumn('kid', 'text', (c) => c.primaryKey())
      .addColumn('generation', 'integer', (c) => c.notNull().unique())
      .addColumn('public_jwk', 'text', (c) => c.notNull())
      .addColumn('private_jwk', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('active_from', 'text', (c) => c.notNull())
      .addColumn('retire_at', 'text')
      .execute();

    await k.schema
      .createTable('identity_challenges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await k.schema.createIndex('identity_challenges_expires').on('identity_challenges').column('expires_at').execute();

    await k.schema
      .createTable('identity_bindings')
      .addColumn('listing_id', 'text', (c) => c.primaryKey())
      .addColumn('public_jwk', 'text', (c) => c.notNull())
      .addColumn('kid', 'text', (c) => c.notNull())
      .addColumn('bound_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('identity_bindings_kid').on('identity_bindings').column('kid').execute();
  },
});
