// What only a listing's owner may do with it (its owner token as Authorization: Bearer):
// update_listing (PATCH /api/listings/{id}) sets a display name, description and website shown
// instead of the card's, the private contact e-mail, and unlists or relists it; delete_listing
// (DELETE /api/listings/{id}) takes it off every public surface and erases its personal data,
// keeping a tombstone so that, for DELETED_HOLD_MS, only a new claim can list its URL again.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError, badRequest, conflict } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { nextStep } from '../platform/next-step.ts';
import { removeJob } from '../platform/jobs/store.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import { MAX_URL_LENGTH } from '../listings/url.ts';
import { lockListing, nameHolder, protectName, updateListing, type ListingPatch, type ListingRow } from '../listings/store.ts';
import { requireListing, statusUrl } from '../listings/operations.ts';
import { reservedNames } from '../listings/name-key.ts';
import { deleteFeedEventsOf } from '../feed/store.ts';
import { deleteInboxOf } from '../inbox/store.ts';
import { revokeListingToken } from '../access/store.ts';
import { removeOwner } from '../owners/store.ts';
import { requireOwner } from '../owners/caller.ts';
import { SEAT_METHODS } from '../owners/rules.ts';
import { listingWorkKey } from '../metering/caller.ts';
import { eraseAuthor } from '../feedback/store.ts';
import { probeJobId, scheduleProbe } from '../probe/scheduler.ts';
import type { ProbeCtx } from '../probe/runtime.ts';
import { listingView, listingViewOutput, viewContext } from './listing-view.ts';
import { DELETED_HOLD_MS } from './operations.ts';
import { endClaim } from './owner-change.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const MARKUP = /<\/?[a-z!][^>]*>/i;

/** A display text as the probe's clean checks would accept it: no markup, control characters removed, capped. */
function cleanShown(raw: string, max: number, field: string): string {
  if (MARKUP.test(raw)) throw badRequest('invalid_input', `${field}: markup is not allowed`, field);
  const text = cleanText(raw.replace(CONTROL, ' '), max);
  if (text === '') throw badRequest('invalid_input', `${field}: is empty`, field);
  return text;
}

const nameTaken = (name: string, why: 'taken' | 'reserved', holder: string | undefined) =>
  conflict(
    'name_taken',
    why === 'reserved'
      ? `name: ${JSON.stringify(name)} is, or looks like, the name of Rollcall or of its operator, which no listing may wear; choose a name of your own`
      : `name: another claimed listing${holder ? ` (${holder})` : ''} shows ${JSON.stringify(name)}, or a name that looks the same (compared without case, spacing, invisible characters and look-alike letters); choose a name of your own`,
    'name',
  );

const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

export const updateListingOp = defineOperation({
  name: 'update_listing',
  ownerOnly: true,
  title: 'Update your listing',
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  description:
    'As the owner (Bearer rco_...; same as PATCH /api/listings/{id}): set the shown name, description or website (null: the card\'s), private contact_email, or unlisted. Names others hold are refused.',
  input: z.object({
    listing_id: z.string().min(1).max(64).describe('Your listing.'),
    name: nullable(z.string().max(MAX_NAME * 4)).describe(`A display name (at most ${MAX_NAME} characters, no markup); null: the card's.`),
    description: nullable(z.string().max(MAX_DESCRIPTION * 4)).describe(`A description (at most ${MAX_DESCRIPTION} characters, no markup); null: the card's.`),
    website: nullable(z.url({ protocol: /^https?$/ }).max(MAX_URL_LENGTH)).describe('An http(s) website; null: the card\'s.'),
    contact_email: nullable(z.email().max(254)).describe('Where Rollcall may reach you; never shown publicly. null removes it.'),
    unlisted: z.boolean().optional().describe('true: off the active list, search and pages (still probed); false: listed again.'),
  }),
  output: z.looseObject({ ok: z.literal(true), ...listingViewOutput, changed: z.array(z.string()), unlisted: z.boolean() }),
  handler: async (ctx: ProbeCtx, input) => {
    const row = await requireListing(ctx, input.listing_id);
    await requireOwner(ctx, row.id, 'update_listing');
    const patch: ListingPatch = {};
    if (input.name !== undefined) patch.owner_name = input.name === null ? null : cleanShown(input.name, MAX_NAME, 'name');
    if (input.description !== undefined) patch.owner_description = input.description === null ? null : cleanShown(input.description, MAX_DESCRIPTION, 'description');
    if (input.website !== undefined) patch.owner_website = input.website;
    if (input.contact_email !== undefined) patch.contact_email = input.contact_email;
    const now = iso(ctx.clock.now());
    let relisted = false;
    if (input.unlisted === true && row.unlisted_at === null) {
      patch.unlisted_at = now;
      // Off the active list and search (both show Live listings only); probes go on.
      if (row.lane === 'active') Object.assign(patch, { lane: 'dormant', lane_reason: 'unlisted' } satisfies ListingPatch);
    } else if (input.unlisted === false && row.unlisted_at !== null) {
      patch.unlisted_at = null;
      if (row.lane === 'dormant' && row.lane_reason === 'unlisted') {
        Object.assign(patch, { lane: 'queued', lane_reason: null } satisfies ListingPatch);
        relisted = true;
      }
    }
    const changed = Object.keys(patch).filter((k) => !k.startsWith('lane'));
    if (changed.length === 0 && input.unlisted === undefined) throw badRequest('invalid_input', 'name, description, website, contact_email or unlisted: say what to change', 'name');
    const updated = await inTransaction(ctx.db.kysely, async (trx) => {
      let after = (await updateListing(trx, row.id, patch, now))!;
      if (patch.owner_name !== undefined) {
        // The name it now shows is held in the database: of two owners naming alike at once, one wins.
        const held = await protectName(trx, row.id, reservedNames(ctx.config), now);
        if (held !== 'held' && patch.owner_name !== null) throw nameTaken(patch.owner_name, held, await nameHolder(trx, after.name_key));
        if (held !== 'held') after = (await updateListing(trx, row.id, { name_withheld: after.name }, now))!;
        else if (after.name_withheld !== null) after = (await updateListing(trx, row.id, { name_withheld: null }, now))!;
      }
      if (relisted) await scheduleProbe(trx, after, now, now, { resetAttempts: true });
      return after;
    });
    if (relisted && ctx.config.probeDelayS === 0) ctx.probe.scheduler.wake(row.id);
    return {
      ok: true as const,
      ...(await listingView(ctx.db.kysely, updated, viewContext(ctx))),
      changed,
      unlisted: updated.unlisted_at !== null,
      status_url: statusUrl(ctx, row.id),
    };
  },
});

const tombstone = (row: ListingRow, now: string): ListingPatch => ({
  lane: 'failed',
  lane_reason: 'deleted',
  deleted_at: now,
  unlisted_at: null,
  contact_email: null,
  submitted_name: null,
  source: null,
  owner_name: null,
  owner_description: null,
  owner_website: null,
  // What the card said stays out of sight too: the tombstone shows nothing but its id.
  name: row.id,
  description: '',
  website: null,
});

export const deleteListingOp = defineOperation({
  name: 'delete_listing',
  ownerOnly: true,
  title: 'Delete your listing',
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false, destructiveHint: true },
  description:
    'As the owner proven by well_known or dns_txt (Bearer rco_...; same as DELETE /api/listings/{id}): take it off every surface, stop probes, revoke its tokens and key, erase its personal data; for 30 days only a claim relists it.',
  input: z.object({ listing_id: z.string().min(1).max(64).describe('Your listing.') }),
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), deleted_at: z.string(), url_held_until: z.string() }),
  handler: async (ctx: ProbeCtx, input) => {
    const row = await requireListing(ctx, input.listing_id);
    const owner = await requireOwner(ctx, row.id, 'delete_listing');
    if (!SEAT_METHODS.has(owner.method)) {
      throw new AppError(403, 'proof_too_weak', `${row.id} is claimed through its ${owner.method}, which any tenant of its host could answer: deleting it needs a proof on the site itself (claim again with well_known or dns_txt). You may still unlist it (update_listing unlisted: true).`, 'authorization', {
        next_step: nextStep('update_listing', { listing_id: row.id, unlisted: true }, 'Take it off every public list instead (it stays yours, and can be listed again).'),
      });
    }
    const clockNow = ctx.clock.now();
    const now = iso(clockNow);
    await inTransaction(ctx.db.kysely, async (trx) => {
      const locked = await lockListing(trx, row.id);
      if (!locked || locked.deleted_at !== null) throw new AppError(404, 'not_found', `no listing with listing_id ${JSON.stringify(row.id)}`, 'listing_id');
      await updateListing(trx, row.id, tombstone(locked, now), now);
      await removeJob(trx, probeJobId(row.id));
      await removeOwner(trx, row.id);
      await endClaim(trx, row.id, now);
      await revokeListingToken(trx, row.id, now); // every holder's, not only the owner's
      await deleteFeedEventsOf(trx, row.id);
      await deleteInboxOf(trx, row.id);
      await eraseAuthor(trx, listingWorkKey(row.id));
    });
    return {
      ok: true as const,
      listing_id: row.id,
      deleted_at: now,
      url_held_until: iso(new Date(clockNow.getTime() + DELETED_HOLD_MS)),
      note: 'The listing is gone from every public surface and its personal data is erased. Its URL can be listed again only by a new claim until url_held_until; after that, by anyone.',
      next_step: nextStep('claim_listing', { url: row.url }, 'To list it again, prove control again: the claim lists it anew.'),
    };
  },
});
