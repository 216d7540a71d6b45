// The active list (SPEC.md 2.2): Live agents and MCPs in rank order, inside the funnel envelope.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { countActive, listActive, type ActivePosition, type ListingRow } from './store.ts';
import { listingView } from './view.ts';
import { viewContext } from './operations.ts';
import { BADGE_POLICY } from '../funnel/badge.ts';
import { dealObject, funnelLoop, STAGES } from '../funnel/deal.ts';

export const ACTIVE_DEFAULT_LIMIT = 100;
export const ACTIVE_MAX_LIMIT = 1000;

/** Per kind: where the next page starts, or `done` once that kind is exhausted. */
type KindCursor = ActivePosition | 'done' | null;
interface ActiveCursor {
  agent: KindCursor;
  mcp: KindCursor;
}

const positionSchema = z.union([z.literal('done'), z.null(), z.object({ rank: z.number().int(), id: z.string().max(64) })]);
const cursorSchema = z.object({ agent: positionSchema, mcp: positionSchema });

const encodeCursor = (c: ActiveCursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(text: string): ActiveCursor {
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

async function page(db: Parameters<typeof listActive>[0], kind: 'agent' | 'mcp', limit: number, from: KindCursor) {
  if (from === 'done') return { rows: [] as ListingRow[], next: 'done' as const };
  const rows = await listActive(db, kind, limit + 1, from ?? undefined);
  if (rows.length <= limit) return { rows, next: 'done' as const };
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1]!;
  return { rows: shown, next: { rank: last.rank, id: last.id } };
}

export const listActiveListings = defineOperation({
  name: 'list_active',
  tool: false, // search_active is the tool; this is GET /api/listings/active
  description: 'Live agents and MCP servers, best rank first, each with a ready-made take_demo request.',
  input: activeInput,
  async handler(ctx, input) {
    const cursor = input.cursor ? decodeCursor(input.cursor) : { agent: null, mcp: null };
    const db = ctx.db.kysely;
    const [agents, mcps, counts] = await Promise.all([
      page(db, 'agent', input.limit, cursor.agent),
      page(db, 'mcp', input.limit, cursor.mcp),
      countActive(db),
    ]);
    const base = ctx.config.publicBaseUrl;
    const view = viewContext(ctx);
    const more = agents.next !== 'done' || mcps.next !== 'done';
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
      agents: agents.rows.map((r) => listingView(r, view)),
      mcps: mcps.rows.map((r) => listingView(r, view)),
      limit: input.limit,
      next_cursor: more ? encodeCursor({ agent: agents.next, mcp: mcps.next }) : null,
    };
  },
});
