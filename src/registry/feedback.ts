// leave_feedback (POST /api/products/feedback and the tool) and complete_founding_path, composed:
// the feedback domain records the item (and its refill and trace), the funnel, which sits above
// it, settles the founding deal in the same transaction: a seat with the full access token, or a
// 25% code, or the reason for neither. The listing a feedback names is locked first, before the
// feedback's trace on it, as in every funnel transaction (no lock-order deadlocks).
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';
import { MAX_NAME } from '../listings/text.ts';
import { lockListing } from '../listings/store.ts';
import { requireListing } from '../listings/operations.ts';
import { resolveSubject } from '../metering/caller.ts';
import {
  bodyField,
  feedbackAnswer,
  feedbackInput,
  feedbackOutputShape,
  feedbackToolInput,
  LEAVE_FEEDBACK_DESCRIPTION,
  ratingField,
  realBody,
  recordLeftFeedback,
  SURFACES,
} from '../feedback/operations.ts';
import { FOUNDING_OUTCOMES, ownerHolder, settleFounding, type FoundingResult } from '../funnel/grant.ts';
import { foundingClaimOf, type ClaimCtx } from './claim-proof.ts';
import { requireOwner } from '../owners/caller.ts';
import { findDemo } from '../funnel/demos.ts';
import { loadFunnel, NO_FUNNEL } from '../funnel/store.ts';
import { badgeFor, RANK_DELTA } from '../funnel/badge.ts';
import type { MeshCtx } from '../mesh/partners.ts';
import { createWorkflowFromFeedback } from '../collab/workflows.ts';
import { goalField, workflowOutput } from '../collab/schemas.ts';
import { demoAnswer, notLive, runDemo } from './demo.ts';

const foundingOutput = z.looseObject({
  outcome: z.enum(FOUNDING_OUTCOMES),
  listing_id: z.string().nullable(),
  percent_off: z.number(),
  message: z.string(),
});

/**
 * Where the founding outcome leads: the claim for an unclaimed listing, the install bundle with a
 * fresh token, else the deal; undefined leaves the feedback's own step (a loop tick that reads it).
 * A seated listing's later feedback is evidence for its kernel, so it leads to the tick, never to
 * a new product token that would stop the one in use.
 */
function foundingNext(f: FoundingResult, token: string | null): NextStep | undefined {
  if (f.outcome === 'unclaimed' && f.listing_id) {
    return nextStep('claim_listing', { listing_id: f.listing_id }, 'Recorded, but seats and codes go to a listing\'s owner: if it is yours, claim it (claim_listing, then verify_claim answers the owner token), then send the feedback again with the token.');
  }
  if ((f.outcome === 'seat' || f.outcome === 'already_seated') && token) {
    return nextStep('install_product', { access_token: token }, 'Your full product: the kernel, the loop, the mesh and your skills, ready to paste into your runtime.');
  }
  if (f.outcome === 'already_seated') return undefined;
  if (f.listing_id && f.outcome !== 'not_eligible') {
    return nextStep('get_founding_deal', { listing_id: f.listing_id }, 'What your listing holds of the founding deal, and how far payments are from opening.');
  }
  return undefined;
}

/** The token and code fields an answer carries at its top level (only when shown now). */
const shown = (f: FoundingResult, token: string | null) => ({
  ...(token ? { access_token: token } : {}),
  ...(f.discount_code ? { discount_code: f.discount_code } : {}),
});

/** SPEC.md 4.2/4.3: leave_feedback with `complete_collab` or `partner_listing_id` also makes a collab workflow (collab/workflows.ts). */
const collabFields = {
  complete_collab: z.boolean().optional().describe('true: also make a collab workflow led by the named listing (needs its owner token); answered as workflow.'),
  collab_goal: goalField.optional().describe('The goal of that workflow (default: one derived from the listing).'),
  partner_listing_id: z.string().min(1).max(64).optional().describe('A partner listing to invite: also makes a collab workflow (as complete_collab) with it.'),
};

export const leaveFeedback = defineOperation({
  name: 'leave_feedback',
  title: 'Leave feedback',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  description: `${LEAVE_FEEDBACK_DESCRIPTION} Your claimed Live listing, named with its owner token (Bearer rco_...), takes a founding seat.`,
  input: feedbackInput.extend(collabFields),
  toolInput: feedbackToolInput.extend(collabFields),
  output: z.looseObject({ ...feedbackOutputShape, founding: foundingOutput, workflow: workflowOutput.optional() }),
  handler: async (ctx: MeshCtx & ClaimCtx, input) => {
    const subject = await resolveSubject(ctx.db.kysely, ctx, { agent_name: input.agent_name });
    const claim = input.listing_id !== undefined ? await foundingClaimOf(ctx, input.listing_id) : undefined;
    const now = ctx.clock.now();
    const wantsCollab = input.complete_collab === true || input.partner_listing_id !== undefined;
    // A workflow is led by the listing: only its owner makes one (refused before anything is recorded).
    if (wantsCollab && input.listing_id !== undefined) await requireOwner(ctx, input.listing_id, 'a collab workflow');
    const { recorded, founding, collab } = await inTransaction(ctx.db.kysely, async (trx) => {
      if (input.listing_id !== undefined) await lockListing(trx, input.listing_id);
      const recorded = await recordLeftFeedback(trx, subject, input, now);
      const { item } = recorded;
      const founding = await settleFounding(trx, input.listing_id, { id: item.id, counted: item.counted, rating: item.rating, audience: item.audience }, now, claim);
      // In the same transaction: a refused workflow (no listing, unknown partner) records no feedback either.
      const collab = wantsCollab
        ? await createWorkflowFromFeedback(trx, { subject, listing_id: input.listing_id, partner_listing_id: input.partner_listing_id, goal: input.collab_goal, agent_name: input.agent_name, now })
        : undefined;
      return { recorded, founding, collab };
    });
    const answer = feedbackAnswer(recorded, subject, input);
    const token = founding.access_token ?? null;
    const next = foundingNext(founding, token) ?? answer.next_step;
    if (!collab) return { ...answer, founding, ...shown(founding, token), next_step: next };
    // The workflow was asked for, so opening its session comes first; the step the feedback alone would suggest follows in next_steps.
    return { ...answer, founding, ...shown(founding, token), workflow: collab.workflow, next_step: collab.next_step, next_steps: [collab.next_step, next] };
  },
});

const pathInput = z.object({
  listing_id: z.string().min(1).max(64).describe('Your Live listing: its demo is taken if not yet, and the feedback names it.'),
  agent_name: z.string().min(1, 'is required').max(MAX_NAME).describe('Your agent\'s name.'),
  rating: ratingField.describe('Your rating of the demo, a whole number 1-5.'),
  body: bodyField.describe('One real sentence about the demo (at least 12 characters and 3 words; placeholder text is refused).'),
  audience: z.enum(['agent', 'mcp']).optional().describe('Whether you are an agent or an MCP server (default: the listing\'s kind).'),
  surface: z.enum(SURFACES).optional().describe('Where the feedback is about (default demo).'),
});

export const completeFoundingPath = defineOperation({
  name: 'complete_founding_path',
  title: 'Complete the founding path',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  description:
    'The founding path in one call for your claimed Live listing, with its owner token (Bearer rco_...): takes its demo, records your rating and sentence, and settles a founding seat (while 100 last, then a 25% code).',
  input: pathInput,
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), demo: z.looseObject({ taken_now: z.boolean() }), feedback: z.looseObject({ feedback_id: z.string() }), founding: foundingOutput }),
  handler: async (ctx: MeshCtx & ClaimCtx, input) => {
    const listing = await requireListing(ctx, input.listing_id);
    realBody(input.body); // junk is refused before anything happens
    const subject = await resolveSubject(ctx.db.kysely, ctx, { agent_name: input.agent_name });
    const claim = await foundingClaimOf(ctx, listing.id);
    const holder = subject.listing_id === listing.id && claim ? { holder: ownerHolder(listing.id), claimId: claim.claim_id } : { holder: subject.key, claimId: null };
    const now = ctx.clock.now();
    const feedback = { rating: input.rating, body: input.body, agent_name: input.agent_name, listing_id: listing.id, audience: input.audience ?? listing.kind, surface: input.surface ?? ('demo' as const), sku: listing.kind === 'agent' ? 'alive' : 'mcp_mesh', source: 'complete_founding_path' };
    const result = await inTransaction(ctx.db.kysely, async (trx) => {
      const row = (await lockListing(trx, listing.id))!;
      const demoTaken = await findDemo(trx, row.id, holder.holder);
      if (!demoTaken && row.lane !== 'active') throw notLive(row);
      const demo = demoTaken ? undefined : await runDemo(ctx, trx, row.id, holder, now);
      const recorded = await recordLeftFeedback(trx, subject, feedback, now);
      const { item } = recorded;
      const founding = await settleFounding(trx, row.id, { id: item.id, counted: item.counted, rating: item.rating, audience: item.audience }, now, claim);
      return { demo, recorded, founding };
    });
    const { demo, recorded, founding } = result;
    // A demo in this call issued the token; the seat then widened that same token to the full product.
    const token = founding.access_token ?? demo?.token ?? null;
    let demoPart: Record<string, unknown> = { taken_now: false, note: 'the demo was taken before; take_demo shows its artifacts again' };
    if (demo) {
      const { ok: _ok, access_token: _token, next_steps: _steps, next_step: _next, badge: _badge, rank_delta: _delta, deal: _deal, ...fields } = await demoAnswer(ctx, demo);
      demoPart = { taken_now: true, ...fields };
    }
    const answer = feedbackAnswer(recorded, subject, feedback);
    const { ok: _ok, next_step: _next, ...feedbackFields } = answer;
    const flags = (await loadFunnel(ctx.db.kysely, [listing.id])).get(listing.id) ?? NO_FUNNEL;
    const badge = badgeFor(flags);
    return {
      ok: true as const,
      listing_id: listing.id,
      demo: demoPart,
      feedback: feedbackFields,
      founding: { ...founding, ...(token && founding.outcome === 'seat' ? { access_token: token } : {}) },
      ...shown(founding, token),
      badge,
      rank_delta: RANK_DELTA[badge],
      next_step: foundingNext(founding, token) ?? answer.next_step,
    };
  },
});
