// The human pages (SPEC.md 4.1): server-rendered HTML over the same operations and read models the
// other doors use; no page holds a business rule. Every page is readable without JS; site.js only
// enhances (the list form's live status, a pending listing's status said when it settles, the try
// page's calls to /api/mcp, copy buttons). A strict Content-Security-Policy forbids inline script
// and style: the pages escape every interpolation (html.ts) and this header is the second wall.
// Forms the pages post to themselves (the list form, a listing's claim) carry a form token
// (form-token.ts) against cross-site request forgery.
// test/pages.test.ts holds every page to WCAG 2.1 AA with axe-core and keyboard checks.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { runOperation, type BaseServices } from '../../platform/operation.ts';
import { requestCtx } from '../context.ts';
import { sendError, toAppError } from '../errors.ts';
import { registerAssets } from './assets.ts';
import type { PageCtx, PageRender, PageResult } from './page.ts';
import { errorPage } from './error.ts';
import { homePage } from './home.ts';
import { listPage, listSubmit } from './list.ts';
import { productsPage } from './products.ts';
import { tryPage } from './try.ts';
import { talkPage } from './talk.ts';
import { collabPage } from './collab.ts';
import { growPage } from './grow.ts';
import { connectorsPage } from './connectors.ts';
import { forAgentsPage } from './for-agents.ts';
import { listingPage } from './listing.ts';
import { catalogEntryPage } from './catalog-entry.ts';
import { claimCheck, claimStart } from './claim.ts';
import { checkFormToken } from './form-token.ts';

/** Scripts and styles from this origin only, never inline; nothing framed, no plugins, forms post here. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');


/** Every page and its path (the nav in layout.ts links most of them). */
export const PAGES: readonly { path: string; render: PageRender }[] = [
  { path: '/', render: homePage },
  { path: '/list', render: listPage },
  { path: '/products', render: productsPage },
  { path: '/try', render: tryPage },
  { path: '/talk', render: talkPage },
  { path: '/collab', render: collabPage },
  { path: '/grow', render: growPage },
  { path: '/connectors', render: connectorsPage },
  { path: '/for-agents', render: forAgentsPage },
  { path: '/l/:id', render: listingPage },
  // A server name holds a slash (io.github.owner/repo): the rest of the path is the name.
  { path: '/c/*', render: catalogEntryPage },
];

function pageCtx(services: BaseServices, request: FastifyRequest): PageCtx {
  return {
    services,
    request,
    base: services.config.publicBaseUrl,
    now: services.clock.now(),
    run: (op, input) => runOperation(op, requestCtx(services, request), input, 'rest'),
  };
}

function send(reply: FastifyReply, result: PageResult) {
  return (
    reply
      .code(result.status ?? 200)
      .headers(result.headers ?? {})
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      // Pages show live data (counts, lanes, seats): always revalidated, never served stale. A page
      // that shows a secret (a claim id, an owner token) is never stored at all.
      .header('cache-control', result.noStore ? 'no-store' : 'no-cache')
      .send(result.html.value)
  );
}

/** A client error met on a page (a refused form, a limit reached) is a page too, with its headers (Retry-After). */
const errorResult = (err: AppError, noStore = false): PageResult => ({ ...errorPage(err.status, err.message), headers: err.headers, noStore });

/** A page that hits a client error (an unknown listing) answers a page, not JSON. */
async function render(services: BaseServices, request: FastifyRequest, reply: FastifyReply, fn: PageRender, noStore = false) {
  try {
    return send(reply, await fn(pageCtx(services, request)));
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return send(reply, errorResult(err, noStore));
    throw err;
  }
}

const listingId = (request: FastifyRequest) => String((request.params as { id?: string }).id ?? '');

export function registerPages(app: FastifyInstance, services: BaseServices) {
  registerAssets(app);
  // Encapsulated, so the form parser exists for the pages' own POST only: the API keeps its 415.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    // What the pages' own routes refuse before a page renders (the request limits) is a page too.
    scope.setErrorHandler((err, request, reply) => {
      const appError = toAppError(err);
      if (appError.status < 500) return send(reply, errorResult(appError, request.method === 'POST'));
      return sendError(err, request, reply);
    });
    for (const page of PAGES) scope.get(page.path, (request, reply) => render(services, request, reply, page.render));
    // The list form without JS: publish through the same operation, then the listing's page.
    scope.post('/list', async (request, reply) => {
      const p = pageCtx(services, request);
      try {
        checkFormToken(request, p.base, request.body);
        const id = await listSubmit(p, request.body);
        return reply.code(303).header('location', `/l/${encodeURIComponent(id)}`).send();
      } catch (err) {
        if (err instanceof AppError && err.status < 500) return send(reply, await listPage(p, err.message, err.status));
        throw err;
      }
    });
    // A listing's claim flow (claim.ts): the claim id travels in these bodies only, never in a URL.
    scope.post('/l/:id/claim', (request, reply) => render(services, request, reply, (p) => claimStart(p, listingId(request), request.body), true));
    scope.post('/l/:id/claim/verify', (request, reply) => render(services, request, reply, (p) => claimCheck(p, listingId(request), request.body), true));
    // Their addresses opened directly (a bookmark, a typed URL) lead to the listing's offer.
    for (const path of ['/l/:id/claim', '/l/:id/claim/verify']) {
      scope.get(path, (request, reply) => reply.code(303).header('location', `/l/${encodeURIComponent(listingId(request))}#claim-h`).send());
    }
  });
}
