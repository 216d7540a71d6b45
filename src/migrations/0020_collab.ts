// Collaboration: workflows, sessions with their participants, steps and messages, and
// the collab market's products and purchases.
import type { Kysely, Migration } from 'kysely';

export const m0020 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('collab_workflows')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_listing_id', 'text', (c) => c.notNull())
      .addColumn('owner_subject', 'text', (c) => c.notNull())
      .addColumn('agent_name', 'text')
      .addColumn('goal', 'text', (c) => c.notNull())
      .addColumn('partners', 'text', (c) => c.notNull())
      .addColumn('steps', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('collab_workflows_owner').on('collab_workflows').columns(['owner_listing_id', 'created_at']).execute();

    await k.schema
      .createTable('collab_workflow_members')
      .addColumn('workflow_id', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('collab_workflow_members_pk', ['workflow_id', 'listing_id'])
      .execute();
    await k.schema.createIndex('collab_workflow_members_listing').on('collab_workflow_members').columns(['listing_id', 'created_at']).execute();

    await k.schema
      .createTable('collab_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workflow_id', 'text', (c) => c.notNull())
      .addColumn('owner_listing_id', 'text', (c) => c.notNull())
      .addColumn('goal', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('open_join', 'integer', (c) => c.notNull())
      .addColumn('outcome', 'text')
      .addColumn('converged', 'text')
      .addColumn('product_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('closed_at', 'text')
      .execute();
    await k.schema.createIndex('collab_sessions_workflow').on('collab_sessions').columns(['workflow_id', 'created_at']).execute();
    await k.schema.createIndex('collab_sessions_state').on('collab_sessions').columns(['state', 'created_at']).execute();

    await k.schema
      .createTable('collab_participants')
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('byo', 'integer', (c) => c.notNull())
      .addColumn('invited_at', 'text', (c) => c.notNull())
      .addColumn('joined_at', 'text')
      .addPrimaryKeyConstraint('collab_participants_pk', ['session_id', 'listing_id'])
      .execute();
    await k.schema.createIndex('collab_participants_listing').on('collab_participants').columns(['listing_id', 'invited_at']).execute();

    await k.schema
      .createTable('collab_steps')
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('step', 'integer', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_at', 'text')
      .addColumn('result', 'text')
      .addColumn('done_at', 'text')
      .addPrimaryKeyConstraint('collab_steps_pk', ['session_id', 'step'])
      .execute();

    await k.schema
      .createTable('collab_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('from_listing_id', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('collab_messages_session').on('collab_messages').columns(['session_id', 'created_at']).execute();

    await k.schema
      .createTable('collab_products')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull().unique())
      .addColumn('workflow_id', 'text', (c) => c.notNull())
      .addColumn('owner_listing_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('contributors', 'text', (c) => c.notNull())
      .addColumn('artifacts', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('price_cents', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('published_at', 'text')
      .execute();
    await k.schema.createIndex('collab_products_market').on('collab_products').columns(['state', 'published_at']).execute();
    await k.schema.createIndex('collab_products_owner').on('collab_products').columns(['owner_listing_id', 'created_at']).execute();

    await k.schema
      .createTable('collab_purchases')
      .addColumn('product_id', 'text', (c) => c.notNull())
      .addColumn('buyer_listing_id', 'text', (c) => c.notNull())
      .addColumn('price_cents', 'integer', (c) => c.notNull())
      .addColumn('via', 'text', (c) => c.notNull())
      .addColumn('receipt', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('collab_purchases_pk', ['product_id', 'buyer_listing_id'])
      .execute();
    await k.schema.createIndex('collab_purchases_buyer').on('collab_purchases').columns(['buyer_listing_id', 'created_at']).execute();
  },
});
