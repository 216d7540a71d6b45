// A listing's claim flow for people, a door to the same operations as POST /api/listings/claim and
// /api/listings/claim/verify (claim_listing, verify_claim), so their budgets and limits are the
// page's too. An unclaimed Live listing's page offers the claim (a form); starting it answers the
// claim page: the proof, where each method puts it, and one button that checks it. The claim id
// travels only in the bodies of these POSTs (a hidden field), never in a URL. A proof not found
// answers the claim page again with what was read; a proof found answers the owner token, once.
// Every answer here holds a secret (the claim id, the token): Cache-Control no-store.
import { z } from 'zod';
import { AppError } from '../../platform/errors.ts';
import { checkStatus } from '../../registry/operations.ts';
import { claimListing, pendingClaim, type PendingClaim } from '../../registry/claim.ts';
import { verifyClaim } from '../../registry/verify-claim.ts';
import { CARD_PROOF_PARAM } from '../../registry/claim-proof.ts';
import { CLAIM_META } from '../../probe/mcp-handshake.ts';
import { html, type Html } from './html.ts';
import { codeBlock, layout, when } from './layout.ts';
import { kindWord, listingHref } from './parts.ts';
import { checkFormToken, formToken, formTokenField, type FormToken } from './form-token.ts';
import type { PageCtx, PageResult } from './page.ts';

const claimHref = (id: string) => `${listingHref(id)}/claim`;
const verifyHref = (id: string) => `${listingHref(id)}/claim/verify`;

/** What the page knows of the listing it claims. */
interface Claimed {
  id: string;
  name: string;
  kind: string;
}

const METHOD_WORDS: Record<string, (kind: string) => string> = {
  well_known: () => 'A file on your site',
  dns_txt: () => 'A DNS TXT record',
  card: (kind) => (kind === 'agent' ? 'Your agent card' : "Your server's initialize answer"),
};

/** The offer on an unclaimed Live listing's page: what a claim is, and the button that starts one. */
export function claimOffer(listing: Claimed, token: FormToken, side: Html | '' = ''): Html {
  return html`<section class="panel" aria-labelledby="claim-h">
  <h2 id="claim-h">Claim this listing</h2>
  <p>Is this ${kindWord(listing.kind)} yours? Prove it and get its owner token: Rollcall gives you a proof to put on your site (a file, a DNS record or your ${listing.kind === 'agent' ? 'agent card' : "server's answer"}), then reads it back. The token lets you edit the listing, check in, take its founding seat and act for it.</p>
  <form class="inline" action="${claimHref(listing.id)}" method="post">
    ${formTokenField(token)}
    <button class="primary" type="submit">Start the claim</button>
  </form>
  ${side}
</section>`;
}

async function listingOf(p: PageCtx, id: string): Promise<Claimed> {
  const s = await p.run(checkStatus, { id });
  return { id: s.id, name: s.name || s.id, kind: s.kind };
}

interface Looked {
  method: string;
  where: string;
  outcome: string;
  detail: string;
}

/** A place's outcome in words (verify_claim's `looked[].outcome`). */
const OUTCOME_WORDS: Record<string, { word: string; tone: string }> = {
  found: { word: 'found', tone: 'good' },
  absent: { word: 'not there', tone: 'bad' },
  failed: { word: 'could not read', tone: 'bad' },
  skipped: { word: 'not read yet', tone: 'warn' },
};

/** What a verification that found nothing read, place by place. */
const lookedList = (looked: readonly Looked[], kind: string) =>
  looked.length
    ? html`<ul class="rows">${looked.map((l) => {
        const o = OUTCOME_WORDS[l.outcome] ?? { word: l.outcome, tone: '' };
        return html`<li><span class="row-main">${METHOD_WORDS[l.method]?.(kind) ?? l.method}: <code>${l.where}</code><br><span class="muted small">${l.detail}</span></span><span class="pill ${o.tone}">${o.word}</span></li>`;
      })}</ul>`
    : '';

function methodPart(m: PendingClaim['methods'][number], kind: string, proof: string, base: string): Html {
  const seat = m.founding_seat ? html`<span class="pill good">takes a founding seat</span>` : html`<span class="pill">no founding seat</span>`;
  let how: Html;
  if (m.method === 'well_known') {
    how = html`<p>Serve <code>${m.where}</code> as <code>text/plain</code> with status 200, with the proof as one of its lines (several listings of one site share the file, one proof a line).</p>`;
  } else if (m.method === 'dns_txt') {
    how = html`<p>Add a TXT record named <code>${m.where}</code> whose value is the proof.</p>`;
  } else if (kind === 'agent') {
    const entry = JSON.stringify({ uri: `${base}/for-agents#claim`, params: { [CARD_PROOF_PARAM]: proof } });
    how = html`<p>Your agent card at <code>${m.where}</code> lists this entry in <code>capabilities.extensions</code>:</p><pre class="wrap-text" tabindex="0"><code>${entry}</code></pre>`;
  } else {
    const meta = `"_meta": ${JSON.stringify({ [CLAIM_META]: proof })}`;
    how = html`<p>Your MCP server at <code>${m.where}</code> answers <code>initialize</code> (and <code>server/discover</code>) with this in its result:</p><pre class="wrap-text" tabindex="0"><code>${meta}</code></pre>`;
  }
  return html`<li><h3>${METHOD_WORDS[m.method]?.(kind) ?? m.method} ${seat}</h3>${how}</li>`;
}

/** The claim page: the proof, where it goes, and the one button that checks it (the claim id in its body). */
function claimPage(base: string, listing: Claimed, claimId: string, claim: PendingClaim, token: FormToken, problem?: { message: string; looked: readonly Looked[]; status: number }): PageResult {
  const body = html`
<header class="page-head">
  <p class="small muted"><a href="/">Registry</a> / <a href="${listingHref(listing.id)}">${listing.name}</a></p>
  <h1>Claim ${listing.name}</h1>
  <p class="lede">Put the proof in one of the places below, then check it. This claim is valid until ${when(claim.expires_at)}. The page is not stored: keep it open until the check succeeds (leaving it means starting a new claim).</p>
</header>
${problem ? html`<div class="status bad" role="alert"><p><strong>Not yet:</strong> ${problem.message}</p>${lookedList(problem.looked, listing.kind)}</div>` : ''}
<section class="panel" aria-labelledby="proof-h">
  <h2 id="proof-h">1. Your proof</h2>
  ${codeBlock('Proof', claim.proof, true)}
  <p class="small muted">The proof is public: it says only that this claim may take the listing. What you must keep to yourself is this page, which holds the claim's secret id.</p>
</section>
<section class="panel" aria-labelledby="where-h">
  <h2 id="where-h">2. Put it in one place</h2>
  <ol class="steps methods">${claim.methods.map((m) => methodPart(m, listing.kind, claim.proof, base))}</ol>
</section>
<section class="panel" aria-labelledby="check-h">
  <h2 id="check-h">3. Check it</h2>
  <p>Rollcall reads each place in turn${claim.methods.some((m) => m.method === 'dns_txt') ? ' (the DNS record first, as it costs your site nothing)' : ''} and makes you the owner when it finds the proof. A place is read at most once every 30 seconds; this claim allows ${claim.verifies_left} more check${claim.verifies_left === 1 ? '' : 's'}.</p>
  <form class="inline" action="${verifyHref(listing.id)}" method="post">
    ${formTokenField(token)}
    <input type="hidden" name="claim_id" value="${claimId}">
    <button class="primary" type="submit">Check the proof</button>
  </form>
</section>`;
  return {
    status: problem?.status,
    noStore: true,
    headers: { 'set-cookie': token.cookie },
    html: layout({ title: `Claim ${listing.name}`, path: '', description: `Claim ${listing.name} on Rollcall: prove you control it.`, body }),
  };
}

/** The claim could not be made or can no longer be verified: say why, and offer a new one. */
function claimEnded(listing: Claimed, message: string, status: number, token: FormToken): PageResult {
  const body = html`
<header class="page-head">
  <p class="small muted"><a href="/">Registry</a> / <a href="${listingHref(listing.id)}">${listing.name}</a></p>
  <h1>Claim ${listing.name}</h1>
</header>
<div class="status bad" role="alert"><p>${message}</p></div>
<form class="inline" action="${claimHref(listing.id)}" method="post">
  ${formTokenField(token)}
  <p class="actions"><button class="primary" type="submit">Start a new claim</button><a class="btn" href="${listingHref(listing.id)}">Back to the listing</a></p>
</form>`;
  return { status, noStore: true, headers: { 'set-cookie': token.cookie }, html: layout({ title: `Claim ${listing.name}`, path: '', description: message, body }) };
}

/** The owner token, shown once, and how to keep and use it. */
function tokenPage(p: PageCtx, listing: Claimed, done: { owner_token: string; method: string; where?: string; founding_seat?: boolean }): PageResult {
  const example = `curl -s -X PATCH ${p.base}/api/listings/${listing.id} \\\n  -H "authorization: Bearer $ROLLCALL_OWNER_TOKEN" \\\n  -H 'content-type: application/json' \\\n  -d '{"description": "What it does, in one sentence."}'`;
  const body = html`
<header class="page-head">
  <p class="small muted"><a href="/">Registry</a> / <a href="${listingHref(listing.id)}">${listing.name}</a></p>
  <h1>You own ${listing.name}</h1>
  <p class="lede">Rollcall found the proof (${METHOD_WORDS[done.method]?.(listing.kind).toLowerCase() ?? done.method}${done.where ? html`: <code>${done.where}</code>` : ''}). This is the listing's owner token.</p>
</header>
<section class="panel" aria-labelledby="token-h">
  <h2 id="token-h">Your owner token</h2>
  ${codeBlock('Owner token', done.owner_token, true)}
  <p class="status warn" role="note"><strong>Shown once.</strong> Rollcall keeps only a hash of it and this page is not stored: copy it now. Leaving or reloading this page loses it.</p>
</section>
<div class="grid">
<section class="panel" aria-labelledby="keep-h">
  <h2 id="keep-h">Keep it secret</h2>
  <ul>
    <li>Store it as a secret: in a password manager, or your deployment's secret store (for example as <code>ROLLCALL_OWNER_TOKEN</code>). Never put it in a repository, a URL, a log or a chat.</li>
    <li>Whoever holds it acts for this listing, and only for this listing.</li>
    <li>Lost or leaked? Claim the listing again: the new claim makes a new token and the old one stops working at once.</li>
    <li>Leave the proof in place: Rollcall reads it again every week and before every grant; a proof gone for 7 days ends the claim.</li>
  </ul>
</section>
<section class="panel" aria-labelledby="use-h">
  <h2 id="use-h">Use it</h2>
  <p>Send it as <code>Authorization: Bearer &lt;owner token&gt;</code> on the REST API and on <code>/api/mcp</code> (set the header on your MCP client's transport). A next step that needs it names it <code>owner_token</code>; it is never an argument and never part of a URL.</p>
  ${codeBlock('Edit the listing with it', example, true)}
  ${done.founding_seat ? html`<p class="small muted">This proof can take a founding seat: see <a href="/products">the founding deal</a>.</p>` : ''}
</section>
</div>
<p class="actions"><a class="btn primary" href="${listingHref(listing.id)}">Your listing page</a></p>`;
  return { noStore: true, html: layout({ title: `You own ${listing.name}`, path: '', description: `The owner token of ${listing.name} on Rollcall.`, body }) };
}

/** A verification that found nothing, in the words of the claim page (what was read is listed under it). */
function problemWords(err: AppError): string {
  const retry = err.headers['retry-after'];
  const again = retry ? `, then check again in ${retry} seconds (a place is read at most once every 30 seconds)` : ', then check again';
  if (err.code === 'proof_not_found') return `the proof was not found in the places Rollcall read (below). Put it in one of them${again}.`;
  if (err.code === 'fetch_failed') return `the places could not be read (below). Make sure your site answers${again}.`;
  return err.message;
}

const verifyForm = z.object({ claim_id: z.string().max(100) });

/** POST /l/:id/claim: claim_listing for this listing, then its claim page. */
export async function claimStart(p: PageCtx, id: string, body: unknown): Promise<PageResult> {
  checkFormToken(p.request, p.base, body);
  const listing = await listingOf(p, id);
  const token = formToken(p.request, p.base);
  try {
    const made = await p.run(claimListing, { listing_id: listing.id });
    const claim = await pendingClaim(p.services.db.kysely, p.base, made.claim_id, p.services.clock.now());
    if (!claim) return claimEnded(listing, 'The claim ended before it could be shown: start a new one.', 410, token);
    return claimPage(p.base, listing, made.claim_id, claim, token);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return claimEnded(listing, err.message, err.status, token);
    throw err;
  }
}

/** POST /l/:id/claim/verify: verify_claim with the claim id of the body; the token page, or the claim page again with what was read. */
export async function claimCheck(p: PageCtx, id: string, body: unknown): Promise<PageResult> {
  checkFormToken(p.request, p.base, body);
  const listing = await listingOf(p, id);
  const token = formToken(p.request, p.base);
  const parsed = verifyForm.safeParse(body ?? {});
  const claimId = parsed.success ? parsed.data.claim_id.trim() : '';
  if (!claimId) return claimEnded(listing, 'This form carries no claim: start one from the listing.', 400, token);
  try {
    const done = await p.run(verifyClaim, { claim_id: claimId });
    return tokenPage(p, await listingOf(p, done.listing_id), done);
  } catch (err) {
    // A proof that could not be read (502 fetch_failed) is the claimant's to fix, like one not found.
    const shown = err instanceof AppError && (err.status < 500 || err.code === 'fetch_failed');
    if (!shown) throw err;
    const claim = await pendingClaim(p.services.db.kysely, p.base, claimId, p.services.clock.now());
    // A claim of another listing posted here is not this page's to show.
    if (!claim || claim.listing_id !== listing.id) return claimEnded(listing, claim ? 'This claim is for another listing: check it from that listing\'s page.' : err.message, err.status, token);
    const looked = ((err.details as { looked?: Looked[] } | undefined)?.looked ?? []).map((l) => ({ method: l.method, where: l.where, outcome: l.outcome, detail: l.detail }));
    const page = claimPage(p.base, listing, claimId, claim, token, { message: problemWords(err), looked, status: err.status });
    return { ...page, headers: { ...page.headers, ...err.headers } };
  }
}
