// register_collab_byo (TOOLS.md "Collaboration"): bring your own runtime into a collab session.
// The endpoint is listed and probed exactly as list_yourself does (the publish operation, run
// as is), then seated in the session as a joined participant acting with that listing. It lives
// in registry because it composes two domains' operations: publish (registry) and collab.
import { z } from 'zod';
import { defineOperation, runOperation } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { nextStep } from '../platform/next-step.ts';
import { MAX_URL_LENGTH } from '../listings/url.ts';
import { MAX_NAME } from '../listings/text.ts';
import type { ProbeCtx } from '../probe/runtime.ts';
import { actingListing } from '../collab/actor.ts';
import { byoRole, seatByo } from '../collab/session-work.ts';
import { loadSessionView } from '../collab/workflows.ts';
import { findSession } from '../collab/store.ts';
import { publish } from './operations.ts';

const urlField = z.string().max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`);

export const registerCollabByo = defineOperation({
  name: 'register_collab_byo',
  ownerOnly: true,
  title: 'Bring your own runtime to a collab session',
  description:
    'Bring a runtime you run (A2A card URL or MCP server URL) into a collab session for your listing (owner token as Bearer): a new URL is listed, probed and seated; a listed one is only invited. Invite-only sessions: the lead only.',
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
  input: z.object({
    session_id: z.string().min(1).max(64).describe('The collab session to join.'),
    url: urlField.optional().describe('The MCP server URL or the agent card URL of your runtime.'),
    agent_card_url: urlField.optional().describe('An A2A agent card URL; wins over url.'),
    name: z.string().max(MAX_NAME).optional().describe('Used only when the card has no name.'),
    role: z.string().max(32).optional().describe('The role the runtime takes (default: the first partner role the steps need; "partner" in an open session).'),
    listing_id: z.string().min(1).max(64).optional().describe('Your listing, bringing the runtime in (owner token as Bearer; the lead if invite-only).'),
  }),
  output: z.looseObject({ ok: z.literal(true), session_id: z.string(), listing_id: z.string(), role: z.string(), byo: z.literal(true), lane: z.string(), next_step: z.looseObject({ tool: z.string(), args: z.looseObject({}), why: z.string() }) }),
  handler: async (ctx: ProbeCtx, input) => {
    if (input.url === undefined && input.agent_card_url === undefined) throw badRequest('invalid_input', 'url or agent_card_url is required: the endpoint of your runtime', 'url');
    const caller = await actingListing(ctx, input);
    // Refused before anything is listed: an unknown, closed or invite-only session, a role no step needs.
    const role = await byoRole(ctx.db.kysely, input.session_id, caller.listing.id, input.role);
    const listed = await runOperation(publish, ctx, { url: input.url, agent_card_url: input.agent_card_url, name: input.name, source: 'register_collab_byo' }, 'mcp');
    const seat = await inTransaction(ctx.db.kysely, (trx) => seatByo(trx, input.session_id, listed.listing_id, role, iso(ctx.clock.now()), listed.outcome === 'listed'));
    const session = await loadSessionView(ctx.db.kysely, (await findSession(ctx.db.kysely, input.session_id))!);
    return {
      ok: true as const,
      session_id: input.session_id,
      listing_id: listed.listing_id,
      role: seat.role,
      byo: true as const,
      status: seat.status,
      already: seat.already,
      outcome: listed.outcome,
      lane: listed.lane,
      status_url: listed.status_url,
      reprobe: listed.reprobe,
      session,
      next_step:
        seat.status === 'joined'
          ? nextStep('claim_listing', { listing_id: listed.listing_id }, 'Prove you control the runtime\'s listing: with its owner token you act for it in the session (collab_session_next).')
          : nextStep('list_collab_sessions', { listing_id: caller.listing.id }, 'The runtime\'s listing was listed before: it is invited and joins when its owner accepts.'),
    };
  },
});
