// The REST door (SPEC.md 4.1): maps query or body to an operation's input and its result to JSON.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyOperation, BaseServices } from '../platform/operation.ts';
import { runOperation } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { requestCtx } from './context.ts';
import { AnswerCache, encodeAnswer, matchesEtag, type EncodedAnswer } from './response-cache.ts';
import { latestChange } from '../platform/db/changes.ts';
import { publish, checkStatus } from '../registry/operations.ts';
import { claimListing } from '../registry/claim.ts';
import { verifyClaim } from '../registry/verify-claim.ts';
import { deleteListingOp, updateListingOp } from '../registry/owner-listing.ts';
import { talkCheckIn, talkPresence } from '../registry/talk.ts';
import { listActiveListings } from '../registry/active.ts';
import { freeScore, scoreRubric } from '../probe/operations.ts';
import { publicFeed } from '../feed/operations.ts';
import { ardSearch } from '../registry/search.ts';
import { ardExplore, ardRegistrySearch, ardResolve } from '../registry/ard-registry.ts';
import { leaveFeedback } from '../registry/feedback.ts';
import { connectorDaily, connectorPrep } from '../connectors/operations.ts';
import { takeDemo, takeDemoByQuery } from '../registry/demo.ts';
import { exportSkills, productAccess, PRODUCT_RESPONSES } from '../registry/products.ts';
import { feedbackPreferences } from '../feedback/preferences.ts';
import { listFeedback } from '../registry/feedback-envelope.ts';
import { productsAgent } from '../registry/agent.ts';
import { getFeedbackPricing } from '../registry/pricing.ts';
import { listOpportunities } from '../registry/opportunities.ts';
import { productLearning, improvementLog } from '../registry/learning.ts';
import { listingLifecycle, discoveryPack, foundingDogfood } from '../registry/network-surfaces.ts';

export interface RestRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The documented form: `{name}` for a path parameter (OpenAPI's). */
  path: string;
  operation: AnyOperation;
  /** Where the input comes from; `body` routes require a JSON object body. */
  from: 'query' | 'body';
  /** Path parameters and the input field each fills (`{id: 'listing_id'}`). */
  params?: Record<string, string>;
  summary: string;
  /**
   * `ard`: a route of the ARD registry API, whose answer is the operation's result as ARD gives it
   * (no `ok`) and whose errors are ARD's `{errorCode, message}` (ard-api-errors.ts).
   */
  shape?: 'ard';
  /** Statuses beyond 200 and the common errors, for /openapi.json. */
  responses?: Record<string, string>;
}

export const restRoutes: RestRoute[] = [
  { method: 'POST', path: '/api/publish', operation: publish, from: 'body', summary: 'List an agent card or MCP server URL' },
  {
    method: 'POST',
    path: '/api/listings/claim',
    operation: claimListing,
    from: 'body',
    summary: 'Start a proof of control of a listing (listing_id) or of a URL not listed yet: a secret claim_id, a proof and where to put it (24 h)',
    responses: { '429': 'too_many_claims: this address asked for its claims of the day' },
  },
  {
    method: 'POST',
    path: '/api/listings/claim/verify',
    operation: verifyClaim,
    from: 'body',
    summary: 'Check a claim\'s proof and answer the listing\'s owner token (rco_..., shown once; send it as Authorization: Bearer)',
    responses: {
      '404': 'claim_unknown',
      '409': 'owner_stronger: the listing\'s owner proved control by a stronger method, whose proof has not been absent twice a day apart',
      '410': 'expired: the claim expired or was used',
      '422': 'proof_not_found: details.looked says what was read',
      '429': 'caller_budget (CALLER_FETCHES_PER_HOUR, your own verifications and scores of unknown URLs), claim_spent (20 verifications a claim) or rate_limited',
      '502': 'fetch_failed: the proof could not be read',
    },
  },
  {
    method: 'GET',
    path: '/api/listings/status',
    operation: checkStatus,
    from: 'query',
    summary: 'Status of a listing by id or name',
    responses: { '409': 'ambiguous_name: several listings have this name; error.details.candidates lists id, url and lane' },
  },
  {
    method: 'GET',
    path: '/api/listings/active',
    operation: listActiveListings,
    from: 'query',
    summary: 'Live listings in the funnel envelope',
    responses: { '410': 'cursor_expired: start again without cursor' },
  },
  { method: 'GET', path: '/api/talk', operation: talkPresence, from: 'query', summary: 'Talk: a listing\'s presence and notices (with its owner token, its inbox too); writes nothing. feed=1 adds the public feed' },
  {
    method: 'POST',
    path: '/api/talk',
    operation: talkCheckIn,
    from: 'body',
    summary: 'The owner\'s talk check-in (Authorization: Bearer <owner token>): records presence, answers the inbox and next actions, marks shown messages read',
    responses: { '401': 'owner_token_required or invalid_owner_token', '403': 'token_mismatch: the owner token acts for another listing' },
  },
  { method: 'GET', path: '/api/score', operation: freeScore, from: 'query', summary: 'Free score of any card or MCP URL (no listing): a known URL from its last check, with its age; an unknown one probed now, from your own hourly allowance' },
  { method: 'GET', path: '/api/score/rubric', operation: scoreRubric, from: 'query', summary: 'How the trust score is made' },
  { method: 'GET', path: '/api/feed', operation: publicFeed, from: 'query', summary: 'Public activity feed, newest first (no personal data)' },
  { method: 'GET', path: '/api/ard/search', operation: ardSearch, from: 'query', summary: 'Natural-language search over the catalog and the Live listings' },
  { method: 'POST', path: '/api/ard/search', operation: ardSearch, from: 'body', summary: 'Natural-language search (body {q, limit?, kind?})' },
  { method: 'GET', path: '/api/ard/resolve', operation: ardResolve, from: 'query', summary: 'The entry an urn:air identifier names (identifiers of the earlier form too, with a Sunset header)', responses: { '404': 'not_found: no Live listing or catalog server has it' } },
  { method: 'POST', path: '/search', operation: ardRegistrySearch, from: 'body', shape: 'ard', summary: 'ARD registry search: {query: {text, filter?}, federation?, pageSize?, pageToken?} -> {results, pageToken?}' },
  { method: 'POST', path: '/explore', operation: ardExplore, from: 'query', shape: 'ard', summary: 'ARD registry explore: not implemented (501)', responses: { '501': 'UNIMPLEMENTED: use POST /search' } },
  {
    method: 'GET',
    path: '/api/products/demo',
    operation: takeDemoByQuery,
    from: 'query',
    summary: 'The free demo of a Live listing: its tools with ready calls or skills with ready messages, artifacts, an access token scoped to them (shown once) and next_steps',
    responses: { '409': 'not_live: the listing is not Live' },
  },
  {
    method: 'POST',
    path: '/api/products/demo',
    operation: takeDemo,
    from: 'body',
    summary: 'The free demo (body: the listing\'s take_demo.body, or listing_id, or name and kind)',
    responses: { '409': 'not_live: the listing is not Live; ambiguous_name: several listings have this name and kind' },
  },
  {
    method: 'POST',
    path: '/api/products/feedback',
    operation: leaveFeedback,
    from: 'body',
    summary: 'Feedback: ultra (rating 1-5 and one real sentence) or structured (mode structured with the survey answers); naming a Live listing takes a founding seat (access token) or a 25% code',
    responses: { '401': 'token_required: the named listing holds an access token; send it' },
  },
  {
    method: 'PATCH',
    path: '/api/listings/{id}',
    params: { id: 'listing_id' },
    operation: updateListingOp,
    from: 'body',
    summary: 'The owner edits the listing (Authorization: Bearer <owner token>): display name, description, website, contact e-mail, unlisted',
    responses: { '401': 'owner_token_required or invalid_owner_token', '403': 'token_mismatch: the owner token acts for another listing', '409': 'name_taken: another claimed listing holds this name (compared as a name key), or it wears Rollcall\'s or the operator\'s name' },
  },
  {
    method: 'DELETE',
    path: '/api/listings/{id}',
    params: { id: 'listing_id' },
    operation: deleteListingOp,
    from: 'query',
    summary: 'The owner deletes the listing (Authorization: Bearer <owner token>; a well_known or dns_txt owner): off every public surface, personal data erased; its URL held for 30 days, when its domain\'s proven owner\'s claim restores it',
    responses: { '401': 'owner_token_required or invalid_owner_token', '403': 'token_mismatch: the owner token acts for another listing; proof_too_weak: a card owner may unlist, not delete' },
  },
  { method: 'GET', path: '/api/products/access', operation: productAccess, from: 'query', summary: 'One product artifact (kernel, loop, mesh, skills) opened by an access token', responses: PRODUCT_RESPONSES },
  { method: 'GET', path: '/api/products/export', operation: exportSkills, from: 'query', summary: 'Your skills as SKILL.md text or JSON, opened by a full access token', responses: PRODUCT_RESPONSES },
  { method: 'GET', path: '/api/products/connectors/daily', operation: connectorDaily, from: 'query', summary: 'Connector daily pick: one outreach partner per UTC day, with its draft (SPEC.md 2.8)' },
  {
    method: 'POST',
    path: '/api/products/connectors/daily/prep',
    operation: connectorPrep,
    from: 'body',
    summary: 'Operator only (Bearer ADMIN_TOKEN): mark today\'s connector pick prepared; body {note?}',
    responses: { '401': 'unauthorized: no or wrong Bearer token', '403': 'operator_routes_disabled: ADMIN_TOKEN is not set', '409': 'research_day: nothing to prepare' },
  },
  { method: 'GET', path: '/api/products/feedback', operation: listFeedback, from: 'query', summary: 'The feedback list envelope: public items, summary, insights, survey, already done, WTP, discount, doctrine', responses: { '400': 'invalid_cursor: before is not a feedback id from this list' } },
  {
    method: 'POST',
    path: '/api/products/agent',
    operation: productsAgent,
    from: 'body',
    summary: 'Agent-native path: {tool: "submit_feedback", answers} submits the structured survey',
    responses: { '400': 'unknown_agent_tool (details.accepted lists the tools), invalid_input (every survey problem in details), feedback_not_real' },
  },
  { method: 'GET', path: '/api/products/opportunities', operation: listOpportunities, from: 'query', summary: 'Open demand: unmet searches and matches, composition gaps, fresh demand, each with a call' },
  { method: 'GET', path: '/api/products/learning', operation: productLearning, from: 'query', summary: 'What Rollcall learned from feedback: per day, themes, what new kernels apply' },
  { method: 'GET', path: '/api/products/improvement-log', operation: improvementLog, from: 'query', summary: 'The latest kernel versions network-wide: why each changed and which parts' },
  { method: 'GET', path: '/api/products/lifecycle', operation: listingLifecycle, from: 'query', summary: 'Listings per lane and funnel stage now, and per day' },
  { method: 'GET', path: '/api/products/preferences', operation: feedbackPreferences, from: 'query', summary: 'What survey answers prefer: A/B questions, choices, improvements, scales' },
  { method: 'GET', path: '/api/products/wtp', operation: getFeedbackPricing, from: 'query', summary: 'Willingness to pay, list prices and the name-your-price clamp' },
  { method: 'GET', path: '/api/products/discovery-pack', operation: discoveryPack, from: 'query', summary: 'Discovery links, Live counts, listings to try first, quickstart and read surfaces' },
  { method: 'GET', path: '/api/products/founding-dogfood', operation: foundingDogfood, from: 'query', summary: 'How Rollcall runs on its own tools: feedback, kernel themes, own trail marks, tool use' },
];

/** The input with each path parameter in its field (a path parameter wins over the same field in the body). */
function withPathParams(params: Record<string, string>, given: Record<string, string>, raw: unknown): unknown {
  const fields = Object.fromEntries(Object.entries(params).map(([param, field]) => [field, given[param]]));
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? { ...raw, ...fields } : fields;
}

/** One REST call of a route's operation. */
async function runRoute(services: BaseServices, route: RestRoute, request: FastifyRequest, reply: FastifyReply, raw: unknown) {
  const ctx = requestCtx(services, request);
  // A body field the operation does not take is refused; a query string may carry others (caches, trackers).
  const result = await runOperation(route.operation, ctx, raw, 'rest', route.from === 'body');
  // What the operation handed the door beside its result (the x402 receipt headers).
  if (ctx.response) reply.headers(ctx.response.headers);
  return result;
}

export function registerRest(app: FastifyInstance, services: BaseServices) {
  const cache = new AnswerCache<EncodedAnswer>();
  for (const route of restRoutes) {
    const maxAgeMs = route.operation.cacheMs?.(services.config) ?? 0;
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request, reply) => {
        let raw = route.from === 'query' ? request.query : request.body;
        if (route.from === 'body' && (raw === undefined || raw === null)) {
          throw badRequest('body_required', 'a JSON object body is required (content-type: application/json)');
        }
        if (route.params) raw = withPathParams(route.params, request.params as Record<string, string>, raw);
        // No closure per request here: under tsx each named one costs a defineProperty (mcp-era.ts).
        if (maxAgeMs <= 0) return runRoute(services, route, request, reply, raw);
        // Keyed by the parsed input, so unknown or reordered query parameters share one entry.
        const parsed = route.operation.input.safeParse(raw ?? {});
        if (!parsed.success) return runRoute(services, route, request, reply, raw); // answers with the invalid_input error
        const key = `${route.method} ${route.path}${JSON.stringify(parsed.data)}`;
        const version = await latestChange(services.db.kysely);
        const now = services.clock.now().getTime();
        let entry = cache.get(key, version, now);
        if (!entry) {
          const answer = encodeAnswer(await runRoute(services, route, request, reply, raw));
          entry = cache.set(key, version, now, maxAgeMs, answer, answer.body.length);
        }
        reply.header('etag', entry.etag).header('cache-control', 'no-cache');
        if (matchesEtag(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
        return reply.type('application/json; charset=utf-8').send(entry.body);
      },
    });
  }
}
