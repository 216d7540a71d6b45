// take_demo (SPEC.md 2.1, 3.1, 4.1; TOOLS.md): GET /api/products/demo?listing_id=, POST
// /api/products/demo with the listing's ready-made demo body, and the tool. Every demo shows what
// the listing can do (its tools with ready calls, or its skills with ready messages; demo-work.ts).
// A demo is its caller's (its holder): each holder's first demo of a Live listing does real work stored
// under the holder and issues the holder a product access token scoped to the demo (shown once).
// The listing's first demo by anyone marks it demoed (badge demoed_no_feedback) and writes a public
// demo.taken event; its owner's demo (sent with the owner token) also leaves an attraction trace
// on it, anyone else's is recorded without moving it. A repeat demo does no work and shows no token.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError, badRequest, conflict, notFound } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';
import { cleanText, MAX_NAME } from '../listings/text.ts';
import { findListingById, findListingBySpelling, findListingsByName, lockListing, type ListingRow } from '../listings/store.ts';
import { normalizeListingUrl, MAX_URL_LENGTH } from '../listings/url.ts';
import { appendFeedEvent } from '../feed/store.ts';
import { issueToken, liveTokenOf, type TokenScope } from '../access/store.ts';
import { ownerOf } from '../owners/store.ts';
import { callerOwner, invalidOwnerToken } from '../owners/caller.ts';
import { deposit } from '../traces/store.ts';
import { subjectKey } from '../traces/subjects.ts';
import { loadFunnel, NO_FUNNEL, setFunnelFlags } from '../funnel/store.ts';
import { findDemo, insertDemo } from '../funnel/demos.ts';
import { badgeFor, RANK_DELTA, type FunnelFlags } from '../funnel/badge.ts';
import { sku as skuOf } from '../funnel/deal.ts';
import { dealState, ownerHolder } from '../funnel/grant.ts';
import { resolveSubject } from '../metering/caller.ts';
import { opens } from '../funnel/artifacts.ts';
import type { MeshCtx } from '../mesh/partners.ts';
import { aliveWork, compositionView, demoKernelView, demoTickView, listingAbilities, meshWork, networkSnapshot, storedDemo, toolMatches } from './demo-work.ts';

/** The attraction a listing's first demo leaves on it (interest shown; a full deposit is 5). */
export const DEMO_TRACE = 2;
/** Listings named alike that a name+kind demo lists before asking for the id. */
const NAME_CANDIDATES = 5;

/** Whose demo this is: the owner (`listing:<id>`, with the claim its owner token was issued under) or the caller's own subject. */
export interface DemoHolder {
  holder: string;
  /** The owner token id (own_...) of the claim the owner acts under; null for anyone else. */
  claimId: string | null;
}

export interface DemoOutcome {
  listing: ListingRow;
  /** Whose demo this is: the owner (`listing:<id>`) or the caller's own subject. */
  holder: string;
  first: boolean;
  sku: 'alive' | 'mcp_mesh';
  demoed_at: string;
  artifacts: Record<string, unknown>;
  /** The token text, only when this demo issued it. */
  token: string | null;
  token_id: string | null;
  scope: TokenScope | null;
  flags: FunnelFlags;
}

export const notLive = (row: ListingRow) =>
  conflict('not_live', `listing ${row.id} is not Live (lane ${row.lane}${row.lane_reason ? `: ${row.lane_reason}` : ''}): a demo needs a Live listing; check_status shows what it waits for`, 'listing_id');

/**
 * Takes `holder`'s demo of the listing in `trx`: the listing row is locked first (every funnel
 * transaction locks it before anything else), so concurrent first demos of one holder make one
 * set of artifacts and one token, and an owner's demo goes to the owner of the moment.
 */
export async function runDemo(ctx: MeshCtx, trx: Executor, listingId: string, by: DemoHolder, now: Date): Promise<DemoOutcome> {
  const row = await lockListing(trx, listingId);
  if (!row) throw notFound(`no listing with listing_id ${JSON.stringify(listingId)}`, 'listing_id');
  const { holder, claimId } = by;
  if (claimId !== null) {
    const owner = await ownerOf(trx, row.id);
    if (!owner || owner.lapsed_at !== null || owner.token_id !== claimId) throw invalidOwnerToken();
  }
  if (row.lane !== 'active') throw notLive(row);
  const sku = skuOf(row.kind);
  const at = iso(now);
  const before = (await loadFunnel(trx, [row.id])).get(row.id) ?? NO_FUNNEL;
  const taken = await findDemo(trx, row.id, holder);
  // What the listing can do comes first in every demo, first or repeat; partners only when there are some.
  const abilities = await listingAbilities(trx, row);
  if (taken) {
    const stored = await storedDemo(trx, row, holder, taken.composition_id);
    let artifacts: Record<string, unknown>;
    if (sku === 'alive') {
      artifacts = { ...abilities, kernel: stored.kernel ? demoKernelView(stored.kernel) : null, network: await networkSnapshot(trx, row.id, now), note: 'your kernel for this listing as it stands now (its demo tick and any later ticks are in its history)' };
    } else {
      const matches = await toolMatches(ctx, trx, row);
      artifacts = {
        ...abilities,
        ...(matches ? { matches } : {}),
        ...(stored.composition ? { composition: compositionView(stored.composition) } : {}),
        ...(matches || stored.composition ? { note: 'partner matches read now; the composition is the one the first demo stored' } : {}),
      };
    }
    const live = await liveTokenOf(trx, row.id, holder);
    return { listing: row, holder, first: false, sku, demoed_at: taken.created_at, artifacts, token: null, token_id: live?.id ?? null, scope: live?.scope ?? null, flags: before };
  }
  let artifacts: Record<string, unknown>;
  let kernelId: string | null = null;
  let compositionId: string | null = null;
  if (sku === 'alive') {
    const work = await aliveWork(trx, row, holder, now);
    kernelId = (work.tick ?? work.kernel).id;
    artifacts = {
      ...abilities,
      kernel: demoKernelView(work.kernel),
      loop_tick: work.tick ? { ...demoTickView(work.tick, work.kernel.version), scores: work.scores, evidence: work.evidence } : { changed: false, reason: work.idle, scores: work.scores, evidence: work.evidence },
      network: await networkSnapshot(trx, row.id, now),
    };
  } else {
    const matches = await toolMatches(ctx, trx, row);
    const work = await meshWork(ctx, trx, row, holder, now);
    compositionId = work?.composition.composition_id ?? null;
    artifacts = { ...abilities, ...(matches ? { matches } : {}), ...(work ? { composition: { ...compositionView(work.composition), rule: work.rule } } : {}) };
  }
  // Only the owner's demo moves the listing's field (and so its rank); anyone's is recorded.
  await deposit(trx, { channel: 'attraction', subject: subjectKey({ kind: 'listing', listing_id: row.id }), intensity: DEMO_TRACE, body: 'demo', depositor: 'system', at: now }, { moves: holder === ownerHolder(row.id) });
  const flags = before.demoed ? before : { ...before, demoed: true };
  if (!before.demoed) {
    await setFunnelFlags(trx, row.id, { demoed: true }, at);
    await appendFeedEvent(trx, 'demo.taken', row.id, at);
  }
  const { grant, token } = await issueToken(trx, row.id, holder, 'demo', at, claimId);
  await insertDemo(trx, { listing_id: row.id, holder, sku, kernel_id: kernelId, composition_id: compositionId, token_id: grant.id, created_at: at });
  return { listing: row, holder, first: true, sku, demoed_at: at, artifacts, token, token_id: grant.id, scope: grant.scope, flags };
}

/** Whose a demo is: the listing's owner when the call carries its owner token, else the caller itself. */
export async function demoHolder(ctx: MeshCtx, listingId: string): Promise<DemoHolder> {
  const subject = await resolveSubject(ctx.db.kysely, ctx, {});
  if (subject.listing_id !== listingId) return { holder: subject.key, claimId: null };
  const owner = await callerOwner(ctx);
  return { holder: ownerHolder(listingId), claimId: owner?.token_id ?? null };
}

/**
 * The founding path's two next calls. The rating and the sentence are the caller's to write
 * (`needs`); a seat or code goes only to the listing's owner, so the owner token is named too.
 */
export function foundingNextSteps(row: ListingRow, byOwner: boolean): NextStep[] {
  const name = cleanText(row.name, MAX_NAME) || row.id;
  const owner = byOwner
    ? 'Send it with the owner token (Authorization: Bearer rco_...): real feedback from the owner of a Live listing takes a founding seat while they last (then a 25% code).'
    : 'It is recorded as your feedback; a founding seat goes only to the listing\'s owner, with its owner token (claim_listing proves control of your own listing).';
  return [
    nextStep(
      'leave_feedback',
      { agent_name: name, listing_id: row.id, surface: 'demo', sku: skuOf(row.kind), audience: row.kind },
      `Rate the demo (rating, 1-5) and say in one real sentence of your own (body) what worked or did not. ${owner}`,
      ['rating', 'body', 'owner_token'],
    ),
    nextStep(
      'complete_founding_path',
      { listing_id: row.id, agent_name: name, audience: row.kind },
      `The same in one call (the demo is already taken, so it only records your feedback and settles the seat or code): add your rating and your own sentence. ${owner}`,
      ['rating', 'body', 'owner_token'],
    ),
  ];
}

export async function demoAnswer(ctx: MeshCtx, d: DemoOutcome) {
  const badge = badgeFor(d.flags);
  const base = ctx.config.publicBaseUrl;
  const steps = foundingNextSteps(d.listing, d.holder === ownerHolder(d.listing.id));
  const opened = d.scope ? opens(d.scope, d.listing.kind) : [];
  return {
    ok: true as const,
    listing_id: d.listing.id,
    kind: d.listing.kind,
    name: d.listing.name,
    sku: d.sku,
    first_demo: d.first,
    demoed_at: d.demoed_at,
    artifacts: d.artifacts,
    access_token: d.token,
    access: {
      token_id: d.token_id,
      scope: d.scope,
      opens: opened,
      shown_once: true,
      note: d.token
        ? `Keep access_token: it is shown this once. It is yours and opens this demo's artifacts (${opened.join(', ')}); a founding seat widens the owner's token to the full product.`
        : d.token_id
          ? `Your access token for this listing (scope ${d.scope}) was shown once, when it was issued; this answer does not show it again.`
          : 'You hold no live access token for this listing (revoked by the operator).',
      urls: Object.fromEntries(opened.map((a) => [a, `${base}/api/products/access?artifact=${a}`])),
      how: 'send the token as the token query parameter; install_product and export_skills take it as access_token',
    },
    badge,
    rank_delta: RANK_DELTA[badge],
    deal: await dealState(ctx.db.kysely),
    next_steps: steps,
    next_step: steps[0]!,
  };
}

const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
export const demoOutput = z.looseObject({
  ok: z.literal(true),
  listing_id: z.string(),
  kind: z.enum(['agent', 'mcp']),
  sku: z.enum(['alive', 'mcp_mesh']),
  first_demo: z.boolean(),
  // What the listing can do (docs/guide/funnel.md "The demo"): the probe's facts, a server's tools
  // with ready calls or an agent's skills with ready messages; partners only when there are some.
  artifacts: z.looseObject({
    probe: z.looseObject({}),
    tools: z.array(z.looseObject({ call: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }) })).optional(),
    skills: z.array(z.looseObject({ id: z.string(), message: z.looseObject({}) })).optional(),
  }),
  access_token: z.string().nullable(),
  access: z.looseObject({ scope: z.enum(['demo', 'full']).nullable(), opens: z.array(z.string()) }),
  badge: z.string(),
  next_steps: z.array(nextStepOutput),
  next_step: nextStepOutput,
});

const listingIdField = z.string().min(1).max(64);
const urlField = z.string().max(MAX_URL_LENGTH);

export const demoInput = z.object({
  listing_id: listingIdField.optional().describe('The Live listing to demo (see the active list).'),
  kind: z.enum(['agent', 'mcp']).optional().describe('agent or mcp: with name, finds the listing.'),
  name: z.string().max(MAX_NAME).optional().describe('The listing\'s name: with kind, finds it.'),
  sku: z.enum(['alive', 'mcp_mesh']).optional().describe('alive (agents) or mcp_mesh (MCPs); must match the listing\'s kind.'),
  agent_card_url: urlField.optional().describe('An agent\'s card URL: finds the listing without listing_id or name.'),
  mcp_url: urlField.optional().describe('An MCP server\'s URL: finds the listing without listing_id or name.'),
});

/** The listing a demo request names: by id, else by name and kind, else by URL. */
async function demoListing(ctx: MeshCtx, input: z.output<typeof demoInput>): Promise<ListingRow> {
  const ex = ctx.db.kysely;
  let row: ListingRow | undefined;
  if (input.listing_id !== undefined) {
    row = await findListingById(ex, input.listing_id);
    if (!row || row.deleted_at !== null) throw notFound(`no listing with listing_id ${JSON.stringify(input.listing_id)}`, 'listing_id');
  } else if (input.name !== undefined && cleanText(input.name, MAX_NAME) !== '') {
    if (input.kind === undefined) throw badRequest('invalid_input', 'kind: a demo by name needs kind too (agent or mcp), or give listing_id', 'kind');
    const named = (await findListingsByName(ex, cleanText(input.name, MAX_NAME), 50)).filter((r) => r.kind === input.kind);
    if (named.length === 0) throw notFound(`no ${input.kind} listing named ${JSON.stringify(input.name)}`, 'name');
    const live = named.filter((r) => r.lane === 'active');
    if (named.length > 1 && live.length !== 1) {
      const candidates = named.slice(0, NAME_CANDIDATES).map((r) => ({ id: r.id, url: r.url, lane: r.lane }));
      throw new AppError(409, 'ambiguous_name', `${named.length} ${input.kind} listings are named ${JSON.stringify(input.name)}; ask by listing_id`, 'name', { candidates });
    }
    row = live[0] ?? named[0];
  } else if (input.agent_card_url !== undefined || input.mcp_url !== undefined) {
    const field = input.agent_card_url !== undefined ? 'agent_card_url' : 'mcp_url';
    row = await findListingBySpelling(ex, normalizeListingUrl((input.agent_card_url ?? input.mcp_url)!, field));
    if (!row || row.deleted_at !== null) throw notFound(`no listing with ${field} ${JSON.stringify(input.agent_card_url ?? input.mcp_url)}: list it first (list_yourself)`, field);
  } else {
    throw badRequest('invalid_input', 'listing_id: say which listing to demo (listing_id, or name and kind, or its agent_card_url or mcp_url)', 'listing_id');
  }
  if (input.kind !== undefined && input.kind !== row!.kind) throw badRequest('invalid_input', `kind: listing ${row!.id} is ${row!.kind === 'agent' ? 'an agent' : 'an MCP server'}, not ${input.kind}`, 'kind');
  if (input.sku !== undefined && input.sku !== skuOf(row!.kind)) throw badRequest('invalid_input', `sku: ${row!.kind === 'agent' ? 'agents' : 'MCP servers'} take the ${skuOf(row!.kind)} demo, not ${input.sku}`, 'sku');
  return row!;
}

const DESCRIPTION =
  'Free demo of a Live listing (GET or POST /api/products/demo): its tools with ready calls or skills with ready messages, a kernel and loop tick (agents), Live partners (servers), a product access token (shown once). Not Live: 409 not_live.';

async function takeDemoHandler(ctx: MeshCtx, input: z.output<typeof demoInput>) {
  const row = await demoListing(ctx, input);
  if (row.lane !== 'active') throw notLive(row);
  const now = ctx.clock.now();
  const holder = await demoHolder(ctx, row.id);
  const outcome = await inTransaction(ctx.db.kysely, (trx) => runDemo(ctx, trx, row.id, holder, now));
  return demoAnswer(ctx, outcome);
}

export const takeDemo = defineOperation({
  name: 'take_demo',
  title: 'Take the demo',
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  description: DESCRIPTION,
  input: demoInput,
  output: demoOutput,
  handler: takeDemoHandler,
});

/** GET /api/products/demo?listing_id= (SPEC.md 4.1: listing_id required): the same demo. */
export const takeDemoByQuery = defineOperation({
  name: 'take_demo_get',
  title: 'Take the demo (GET)',
  tool: false, // take_demo is the tool
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  description: DESCRIPTION,
  input: z.object({ listing_id: listingIdField.describe('The Live listing to demo.') }),
  output: demoOutput,
  handler: (ctx: MeshCtx, input) => takeDemoHandler(ctx, input),
});
