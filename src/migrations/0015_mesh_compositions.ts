// Stored compositions of mesh_compose and their members: a listing's compositions,
// its composed peers and the network's composition edges are indexed reads.
import type { Kysely, Migration } from 'kysely';

export const m0015 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('compositions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text')
      .addColumn('goal', 'text')
      .addColumn('capabilities', 'text', (c) => c.notNull())
      .addColumn('steps', 'text', (c) => c.notNull())
      .addColumn('gaps', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('compositions_owner').on('compositions').columns(['owner', 'created_at']).execute();
    await k.schema.createIndex('compositions_created').on('compositions').columns(['created_at']).execute();

    await k.schema
      .createTable('composition_members')
      .addColumn('composition_id', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('step', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('composition_members_pk', ['composition_id', 'listing_id'])
      .execute();
    await k.schema.createIndex('composition_members_listing').on('composition_members').columns(['listing_id', 'created_at']).execute();
  },
});
