// Product access with an access token (SPEC.md 4.1, 5.2; TOOLS.md install_product, export_skills):
// GET /api/products/access?token=&artifact=, GET /api/products/export?token=&format=, and the tools
// install_product and export_skills. A token comes as the `token` query or the `access_token`
// argument; one that opens nothing (unknown, malformed, revoked, missing) is the one 401 of
// access/store.ts, never a hint whether it exists. A demo token opens its demo's artifacts, a
// founding seat's full token everything (funnel/artifacts.ts); what they hold is the work of the
// token's holder (a demo's caller, or the listing's owner), never another's.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import type { Executor } from '../platform/db/executor.ts';
import { nextStep } from '../platform/next-step.ts';
import { findListingById, type ListingRow } from '../listings/store.ts';
import { invalidToken, requireToken, tokenMismatch, type TokenGrant } from '../access/store.ts';
import { ownerHolder } from '../funnel/grant.ts';
import { meteredEvent } from '../metering/events.ts';
import { ARTIFACTS, opens, scopeInsufficient, type Artifact } from '../funnel/artifacts.ts';
import { artifactView, buildKernel } from '../kernel/build.ts';
import { latestVersion, versionsOf } from '../kernel/store.ts';
import { storedItems } from '../mesh/coverage.ts';
import { compositionsOfOwner } from '../mesh/store.ts';
import { cardSpec, compositionView, kernelView } from './demo-work.ts';
import { skillMarkdown, skillsJson, type SkillsSource } from './skills.ts';

const COMPOSITIONS = 3;
const HISTORY = 5;

const tokenFields = {
  access_token: z.string().optional().describe('Your product access token (rc_..., from a demo or a founding seat).'),
  token: z.string().optional().describe('Your product access token (the query form of SPEC.md; same as access_token).'),
};
const listingField = z.string().min(1).max(64).optional().describe('Your listing: must be the one your access token opens (a check).');

interface Opened {
  grant: TokenGrant;
  listing: ListingRow;
  opens: Artifact[];
}

/** The listing a token opens, or the one 401 for every token that opens nothing. */
async function openToken(ctx: Ctx, input: { access_token?: string; token?: string; listing_id?: string }): Promise<Opened> {
  const field = input.access_token === undefined && input.token !== undefined ? 'token' : 'access_token';
  const given = input.access_token ?? input.token;
  const grant = await requireToken(ctx.db.kysely, given, field);
  const listing = await findListingById(ctx.db.kysely, grant.listing_id);
  if (!listing) throw invalidToken(field);
  if (input.listing_id !== undefined && input.listing_id !== listing.id) throw tokenMismatch(listing.id, input.listing_id);
  return { grant, listing, opens: opens(grant.scope, listing.kind) };
}

async function kernelArtifact(ex: Executor, listing: ListingRow, holder: string) {
  const stored = await latestVersion(ex, holder, listing.id);
  if (stored) return { source: 'stored' as const, ...kernelView(stored) };
  const artifact = buildKernel(await cardSpec(ex, listing, holder));
  return {
    source: 'card' as const,
    version: null,
    system_prompt_short: artifact.system_prompt_short,
    chars: artifact.chars,
    cut: artifact.cut,
    artifact: artifactView(artifact),
    note: 'no stored kernel yet: this one is built now from the listing\'s card; take_demo or improve_kernel (with your listing_id) stores a version the loop then improves',
  };
}

async function loopArtifact(ctx: Ctx, ex: Executor, listing: ListingRow, holder: string) {
  const history = await versionsOf(ex, holder, HISTORY);
  const endpoint = `${ctx.config.publicBaseUrl}/api/mcp`;
  const owned = holder === ownerHolder(listing.id);
  return {
    tool: 'run_loop_tick',
    endpoint,
    request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_loop_tick', arguments: owned ? { listing_id: listing.id } : {} } },
    headers: owned ? { Authorization: 'Bearer <the listing\'s owner token>' } : {},
    kernel_version: history[0]?.version ?? null,
    history: history.map((v) => ({ version: v.version, kind: v.kind, reason: v.reason, created_at: v.created_at })),
    free_per_day: meteredEvent('run_loop_tick').free_per_day,
    cadence: 'after each batch of runs: report outcomes (deposit_outcome) or feedback (leave_feedback), then tick once; each tick rewrites the weakest eval check and stores the next version',
    ...(history.length ? {} : { first: 'no stored kernel yet: take_demo (agents) or improve_kernel with your listing_id makes version 1; then tick' }),
  };
}

async function meshArtifact(ex: Executor, listing: ListingRow, holder: string) {
  const comps = await compositionsOfOwner(ex, holder, COMPOSITIONS, listing.id);
  return {
    count: comps.length,
    compositions: comps.map((c) => ({ ...compositionView(c), role: 'owner' as const })),
    ...(comps.length ? {} : { how: 'no composition stored yet: mesh_compose with your listing_id (or take_demo for an MCP server) plans one' }),
  };
}

async function skillsSource(ctx: Ctx, ex: Executor, listing: ListingRow, holder: string): Promise<SkillsSource> {
  const kernel = await kernelArtifact(ex, listing, holder);
  const comps = await compositionsOfOwner(ex, holder, COMPOSITIONS, listing.id);
  return {
    listing: { id: listing.id, kind: listing.kind, name: listing.name, url: listing.url },
    items: storedItems(listing.capabilities),
    kernel: { version: kernel.version, system_prompt_short: kernel.system_prompt_short },
    mcpEndpoint: `${ctx.config.publicBaseUrl}/api/mcp`,
    loop: { tool: 'run_loop_tick', arguments: holder === ownerHolder(listing.id) ? { listing_id: listing.id } : {} },
    compositions: comps.map((c) => ({ composition_id: c.composition_id, capabilities: c.capabilities, steps: c.steps.map((s) => ({ step: s.step, listing_id: s.listing_id, name: s.name, covers: s.covers })), gaps: c.gaps })),
  };
}

async function skillsArtifact(ctx: Ctx, ex: Executor, listing: ListingRow, holder: string) {
  const src = await skillsSource(ctx, ex, listing, holder);
  return { filename: 'SKILL.md', skill_md: skillMarkdown(src), json: skillsJson(src) };
}

async function artifact(ctx: Ctx, o: Opened, which: Artifact) {
  const ex = ctx.db.kysely;
  switch (which) {
    case 'kernel':
      return kernelArtifact(ex, o.listing, o.grant.holder);
    case 'loop':
      return loopArtifact(ctx, ex, o.listing, o.grant.holder);
    case 'mesh':
      return meshArtifact(ex, o.listing, o.grant.holder);
    case 'skills':
      return skillsArtifact(ctx, ex, o.listing, o.grant.holder);
  }
}

/**
 * The MCP client configuration for this registry. The owner token (it acts for the listing) stays
 * in the owner's environment; a demo holder's calls are its own and need none.
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: MCP clients expand ${VAR} from their environment; meant literally
const ENV_TOKEN = 'Bearer ${ROLLCALL_OWNER_TOKEN}';
const mcpConfig = (ctx: Ctx, owned: boolean) => ({
  mcpServers: { rollcall: { type: 'http', url: `${ctx.config.publicBaseUrl}/api/mcp`, ...(owned ? { headers: { Authorization: ENV_TOKEN } } : {}) } },
  ...(owned ? { env: { ROLLCALL_OWNER_TOKEN: '<the listing\'s owner token, from verify_claim>' } } : {}),
  transport: 'streamable-http (stateless JSON-RPC 2.0)',
});

const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
const TOKEN_401 = 'invalid_token: the access token is unknown, malformed or revoked (one answer for all)';

export const productAccess = defineOperation({
  name: 'product_access',
  title: 'Product access',
  tool: false, // GET /api/products/access; install_product is the tool
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'One product artifact for paste into a runtime, opened by your product access token (token query): kernel (the token holder\'s latest kernel for the listing and system_prompt_short), loop (the run_loop_tick call and the kernel history), mesh (the listing\'s stored compositions) or skills (SKILL.md). A demo token opens its demo\'s artifacts (alive: kernel, loop; mcp_mesh: mesh); a founding seat\'s token opens all.',
  input: z.object({
    ...tokenFields,
    artifact: z.enum(ARTIFACTS).describe(`Which artifact: ${ARTIFACTS.join(', ')}.`),
  }),
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), artifact: z.string(), content: z.looseObject({}) }),
  handler: async (ctx: Ctx, input) => {
    const o = await openToken(ctx, input);
    if (!o.opens.includes(input.artifact)) throw scopeInsufficient(input.artifact, o.grant.scope, o.listing.kind);
    return { ok: true as const, listing_id: o.listing.id, scope: o.grant.scope, opens: o.opens, artifact: input.artifact, content: await artifact(ctx, o, input.artifact) };
  },
});

export const installProduct = defineOperation({
  name: 'install_product',
  title: 'Install the product',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'With your product access_token: the install bundle it opens: your kernel text, the loop configuration, your compositions, skills as SKILL.md and the MCP client config. A demo token opens its demo\'s part, a founding seat\'s everything.',
  input: z.object({ access_token: tokenFields.access_token, listing_id: listingField }),
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), scope: z.enum(['demo', 'full']), opens: z.array(z.string()), locked: z.array(z.string()), products: z.looseObject({}), mcp_config: z.looseObject({}), next_step: nextStepOutput }),
  handler: async (ctx: Ctx, input) => {
    const o = await openToken(ctx, input);
    const owned = o.grant.holder === ownerHolder(o.listing.id);
    const products: Record<string, unknown> = {};
    for (const a of o.opens) products[a] = await artifact(ctx, o, a);
    const locked = ARTIFACTS.filter((a) => !o.opens.includes(a));
    return {
      ok: true as const,
      listing_id: o.listing.id,
      scope: o.grant.scope,
      opens: o.opens,
      locked,
      products,
      mcp_config: mcpConfig(ctx, owned),
      install: [
        owned ? 'Put the mcp_config entry in your MCP client and ROLLCALL_OWNER_TOKEN in its environment.' : 'Put the mcp_config entry in your MCP client.',
        ...(o.opens.includes('kernel') ? ['Use products.kernel.system_prompt_short as your system prompt.'] : []),
        ...(o.opens.includes('skills') ? ['Save products.skills.skill_md as SKILL.md in your skills folder.'] : []),
        ...(o.opens.includes('loop') ? ['After a batch of runs, call run_loop_tick as products.loop.request shows.'] : []),
        ...(o.opens.includes('mesh') ? ['Make the calls of products.mesh.compositions[].steps to compose with your partners.'] : []),
        ...(locked.length ? [`Locked until a founding seat, whose new token opens them: ${locked.join(', ')}.`] : []),
      ],
      next_step: owned
        ? nextStep('run_loop_tick', { listing_id: o.listing.id }, 'Improve your listing\'s kernel from the evidence about it: one loop tick (without a stored kernel it says how to make one).', ['owner_token'])
        : nextStep('run_loop_tick', {}, 'Improve your kernel from the evidence: one loop tick, as the same caller that took the demo (without a stored kernel it says how to make one).'),
    };
  },
});

export const exportSkills = defineOperation({
  name: 'export_skills',
  title: 'Export skills',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'With your product access_token (same as GET /api/products/export): the listing\'s skills as SKILL.md text (default) or JSON, with its system prompt, loop call and compositions. Needs the full product (a founding seat\'s token).',
  input: z.object({
    ...tokenFields,
    format: z.enum(['skills', 'json']).optional().describe('skills (SKILL.md text, default) or json.'),
    listing_id: listingField,
  }),
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), format: z.enum(['skills', 'json']) }),
  handler: async (ctx: Ctx, input) => {
    const o = await openToken(ctx, input);
    if (!o.opens.includes('skills')) throw scopeInsufficient('skills', o.grant.scope, o.listing.kind, input.token !== undefined ? 'token' : 'access_token');
    const src = await skillsSource(ctx, ctx.db.kysely, o.listing, o.grant.holder);
    const format = input.format ?? 'skills';
    return format === 'skills'
      ? { ok: true as const, listing_id: o.listing.id, format, filename: 'SKILL.md', skill_md: skillMarkdown(src) }
      : { ok: true as const, listing_id: o.listing.id, format, skills: skillsJson(src) };
  },
});

/** For /openapi.json: the statuses these routes add. */
export const PRODUCT_RESPONSES = { '401': TOKEN_401, '403': 'scope_insufficient: a demo token does not open this artifact (a founding seat\'s new token does)' };
