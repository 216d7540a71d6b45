// get_product_token: the listing's owner of the moment asks for a new product access token for
// what the listing holds (its founding seat: the full product; else its owner's demo: that demo's
// artifacts). A token is a grant of value, so the owner's proof of control is read again for this
// call, and the token is issued under the listing's lock to the owner whose token made the call
// (a claim verified meanwhile wins). The new token is shown once; the owner's earlier one stops.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { nextStep } from '../platform/next-step.ts';
import { lockListing } from '../listings/store.ts';
import { requireListing } from '../listings/operations.ts';
import { reissueToken, type TokenScope } from '../access/store.ts';
import { ownerOf } from '../owners/store.ts';
import { invalidOwnerToken, requireOwner } from '../owners/caller.ts';
import { holdingOf } from '../funnel/founding.ts';
import { findDemo } from '../funnel/demos.ts';
import { ownerHolder } from '../funnel/grant.ts';
import { opens } from '../funnel/artifacts.ts';
import { lookForProof, recordRecheck, type ClaimCtx } from './claim-proof.ts';

const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });

export const getProductToken = defineOperation({
  name: 'get_product_token',
  ownerOnly: true,
  title: 'Product token',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
  description: 'As the owner (Bearer rco_...): a new rc_ product token for your seat or demo, shown once. Reads your proof again; the old token stops.',
  input: z.object({ listing_id: z.string().min(1).max(64).describe('Your listing.') }),
  output: z.looseObject({ ok: z.literal(true), access_token: z.string(), scope: z.enum(['demo', 'full']), next_step: nextStepOutput }),
  handler: async (ctx: ClaimCtx, input) => {
    const listing = await requireListing(ctx, input.listing_id);
    const owner = await requireOwner(ctx, listing.id, 'get_product_token');
    const ex = ctx.db.kysely;
    const holder = ownerHolder(listing.id);
    const held = await holdingOf(ex, listing.id);
    const scope: TokenScope | undefined = held?.kind === 'seat' ? 'full' : (await findDemo(ex, listing.id, holder)) ? 'demo' : undefined;
    if (!scope) {
      throw new AppError(409, 'nothing_to_open', `${listing.id} holds no founding seat and its owner has not taken its demo: take_demo with your owner token issues your first product token`, 'listing_id', {
        next_step: nextStep('take_demo', { listing_id: listing.id }, 'Your demo of your listing issues its product token.', ['owner_token']),
      });
    }
    const row = await ownerOf(ex, listing.id);
    if (!row) throw invalidOwnerToken();
    const look = await lookForProof(ctx, { url: listing.url, kind: listing.kind }, row.proof, row.method, 'owner');
    const readAt = ctx.clock.now();
    await recordRecheck(ex, listing.id, look, readAt);
    const proof = { method: look.method, where: look.where, found: look.found, read_at: iso(readAt) };
    if (!look.found) {
      throw new AppError(422, 'proof_not_found', `your proof of control was not found at ${look.where} just now (${look.detail}): a product token goes to an owner whose proof is in place; put it back and ask again`, 'listing_id', { proof });
    }
    const issued = await inTransaction(ex, async (trx) => {
      await lockListing(trx, listing.id);
      const current = await ownerOf(trx, listing.id);
      if (!current || current.lapsed_at !== null || current.token_id !== owner.token_id) throw invalidOwnerToken();
      return reissueToken(trx, listing.id, holder, scope, iso(ctx.clock.now()), owner.token_id);
    });
    return {
      ok: true as const,
      listing_id: listing.id,
      access_token: issued.token,
      token_id: issued.grant.id,
      scope,
      opens: opens(scope, listing.kind),
      proof,
      shown_once: true,
      note: 'Keep access_token: it is shown this once. Your earlier product token for this listing no longer works.',
      next_step: nextStep('install_product', { access_token: issued.token }, 'Your product, ready to paste into your runtime.'),
    };
  },
});
