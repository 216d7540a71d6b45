// The active list (SPEC.md 2.2): Live agents and MCPs in rank order, inside the funnel envelope.
// Paging walks one fixed order: the first page records the order of the whole list at its
// change-feed position (a snapshot, read in one transaction with that position), and cursors page
// through that order, so a listing that stays Live is seen exactly once however ranks move
// meanwhile; listings that left are skipped.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError, badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { latestChange } from '../platform/db/changes.ts';
import { activeOrder, countActive, readActiveSnapshot, rowsInOrder, saveActiveSnapshot } from '../listings/store.ts';
import { BADGE_POLICY } from '../funnel/badge.ts';
import { dealObject, funnelLoop, STAGES } from '../funnel/deal.ts';
import { listingViews, viewContext } from './listing-view.ts';

export const ACTIVE_DEFAULT_LIMIT = 100;
export const ACTIVE_MAX_LIMIT = 1000;

const cursorSchema = z.object({ s: z.number().int().min(0), a: z.number().int().min(0), m: z.number().int().min(0) });
type Cursor = z.infer<typeof cursorSchema>;

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(text: string): Cursor {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw badRequest('invalid_cursor', 'cursor is not one this service issued; start again without it', 'cursor');
  }
}

export const activeInput = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(ACTIVE_MAX_LIMIT)
    .default(ACTIVE_DEFAULT_LIMIT)
    .describe(`Rows per kind (default ${ACTIVE_DEFAULT_LIMIT}, at most ${ACTIVE_MAX_LIMIT}).`),
  cursor: z.string().max(512).optional().describe('next_cursor of the previous page.'),
});

export const listActiveListings = defineOperation({
  name: 'list_active',
  title: 'List Live listings',
  cacheMs: (config) => config.activeCacheMs,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  output: z.looseObject({
    ok: z.literal(true),
    counts: z.object({ agents_active: z.number(), mcp_active: z.number() }),
    agents: z.array(z.looseObject({ id: z.string(), name: z.string(), lane: z.literal('active') })),
    mcps: z.array(z.looseObject({ id: z.string(), name: z.string(), lane: z.literal('active') })),
    next_cursor: z.string().nullable(),
  }),
  tool: false, // search_active is the tool; this is GET /api/listings/active
  description: 'Live agents and MCP servers, best rank first, each with a ready-made take_demo request.',
  input: activeInput,
  async handler(ctx, input) {
    const db = ctx.db.kysely;
    let order: { agent: string[]; mcp: string[]; seq: number };
    let from = { agent: 0, mcp: 0 };
    if (input.cursor) {
      const cursor = decodeCursor(input.cursor);
      const snap = await readActiveSnapshot(db, cursor.s);
      if (!snap) throw new AppError(410, 'cursor_expired', 'this cursor has expired; start again without it', 'cursor');
      order = { ...snap, seq: cursor.s };
      from = { agent: cursor.a, mcp: cursor.m };
    } else {
      // The position and both orders are read from one snapshot of the database, so they belong together.
      order = await inTransaction(db, async (trx) => ({ seq: await latestChange(trx), agent: await activeOrder(trx, 'agent'), mcp: await activeOrder(trx, 'mcp') }), { snapshot: true });
      if (order.agent.length > input.limit || order.mcp.length > input.limit) {
        await saveActiveSnapshot(db, order.seq, { agent: order.agent, mcp: order.mcp }, iso(ctx.clock.now()));
        // The order kept first at this position is the one every page walks: on PostgreSQL a change
        // that commits after a later one can leave two states at one position, and a first page
        // built from the other would then not match its cursor's pages.
        order = { ...((await readActiveSnapshot(db, order.seq)) ?? order), seq: order.seq };
      }
    }
    const slice = (kind: 'agent' | 'mcp') => order[kind].slice(from[kind], from[kind] + input.limit);
    const [agents, mcps, counts] = await Promise.all([rowsInOrder(db, slice('agent'), 'active'), rowsInOrder(db, slice('mcp'), 'active'), countActive(db)]);
    const next = { agent: from.agent + input.limit, mcp: from.mcp + input.limit };
    const more = next.agent < order.agent.length || next.mcp < order.mcp.length;
    const base = ctx.config.publicBaseUrl;
    const view = viewContext(ctx);
    const [agentViews, mcpViews] = await Promise.all([listingViews(db, agents, view), listingViews(db, mcps, view)]);
    return {
      ok: true as const,
      origin: base,
      brand: { name: 'Rollcall', tagline: 'The registry where agents and MCP servers are probed for real before they are listed.', url: base },
      deal: dealObject(base),
      announce: {
        text: 'List your A2A agent or MCP server: we probe it, score it and make it Live. The first 100 with real feedback get a founding seat.',
        publish: `${base}/api/publish`,
        mcp: `${base}/api/mcp`,
      },
      funnel_loop: funnelLoop(base),
      badge_policy: BADGE_POLICY,
      stages: STAGES,
      counts: { agents_active: counts.agent, mcp_active: counts.mcp },
      agents: agentViews,
      mcps: mcpViews,
      limit: input.limit,
      next_cursor: more ? encodeCursor({ s: order.seq, a: Math.min(next.agent, order.agent.length), m: Math.min(next.mcp, order.mcp.length) }) : null,
    };
  },
});
