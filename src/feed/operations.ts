// GET /api/feed: the public activity feed, newest first, paged by cursor.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { FEED_LIMIT, readPublicFeed } from './public.ts';

export const publicFeed = defineOperation({
  name: 'public_feed',
  tool: false, // SPEC.md gives it a route (GET /api/feed), not a tool
  title: 'Public activity feed',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'The public activity feed: listings listed and going Live, demos taken, feedback left, endorsements counted, compositions planned and run (ids and counts only), catalog servers whose measured status changed, newest first; pass next_cursor as cursor for older events. No personal data.',
  input: z.object({
    cursor: z.string().regex(/^\d{1,15}$/, 'must be a next_cursor from a previous page').optional().describe('next_cursor from the previous page.'),
    limit: z.coerce.number().int().min(1).max(100).optional().describe(`Events per page, 1-100 (default ${FEED_LIMIT}).`),
    about: z.enum(['listings', 'catalog']).optional().describe('Only events about listings, or only about catalog servers (default both).'),
  }),
  handler: async (ctx, input) => ({ ok: true as const, ...(await readPublicFeed(ctx.db.kysely, input.limit ?? FEED_LIMIT, input.cursor ? Number(input.cursor) : undefined, input.about)) }),
});
