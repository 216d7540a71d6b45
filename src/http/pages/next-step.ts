// A listing's next step on its page: the funnel's next_step, the same one its status answer gives
// agents, so the page never offers a step the listing has already taken. The free demo is a link;
// another listing to look at is a link to its page; any other step is said in words, with the
// call that makes it (its REST route when the tool has one, else a tools/call to /api/mcp).
import type { NextStep } from '../../platform/next-step.ts';
import { restRoutes } from '../rest.ts';
import { html, type Html } from './html.ts';
import { codeBlock } from './layout.ts';
import { listingHref } from './parts.ts';

const OWNER_TOKEN = 'owner_token';

/** Text in single quotes for a POSIX shell. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The step's arguments with a `<name>` placeholder for each field only the caller writes. */
function filledArgs(step: NextStep): Record<string, unknown> {
  const placeholders = (step.needs ?? []).filter((n) => n !== OWNER_TOKEN).map((n) => [n, `<${n}>`]);
  return { ...step.args, ...Object.fromEntries(placeholders) };
}

/** The step as one curl command and the label that names the route it calls. */
export function stepCurl(base: string, step: NextStep): { label: string; curl: string } {
  const args = filledArgs(step);
  const auth = step.needs?.includes(OWNER_TOKEN) ? ` \\\n  -H 'authorization: Bearer <owner token>'` : '';
  const route = restRoutes.find((r) => r.operation.name === step.tool && !r.params);
  if (route?.from === 'query') {
    const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)])).toString();
    return { label: `GET ${route.path}`, curl: `curl -s ${shellQuote(`${base}${route.path}?${query}`)}${auth}` };
  }
  if (route) {
    return { label: `${route.method} ${route.path}`, curl: `curl -s -X ${route.method} ${base}${route.path}${auth} \\\n  -H 'content-type: application/json' \\\n  -d ${shellQuote(JSON.stringify(args))}` };
  }
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: step.tool, arguments: args } };
  return {
    label: `${step.tool} over MCP`,
    curl: `curl -s ${base}/api/mcp${auth} \\\n  -H 'content-type: application/json' \\\n  -H 'accept: application/json, text/event-stream' \\\n  -d ${shellQuote(JSON.stringify(call))}`,
  };
}

/** What the caller adds before the call runs, in words. */
function needsNote(step: NextStep): Html | '' {
  const fields = (step.needs ?? []).filter((n) => n !== OWNER_TOKEN);
  const token = step.needs?.includes(OWNER_TOKEN);
  if (!fields.length && !token) return '';
  return html`<p class="small muted">${fields.length ? html`Fill in ${fields.map((f, i) => html`${i ? ', ' : ''}<code>${f}</code>`)}` : ''}${fields.length && token ? '; ' : ''}${
    token ? html`${fields.length ? 'send' : 'Send'} your owner token as <code>Authorization: Bearer</code>` : ''
  }.</p>`;
}

const demoHrefOf = (listingId: string) => `/api/products/demo?listing_id=${encodeURIComponent(listingId)}`;
const dealLink = (live: boolean): Html | '' => (live ? html`<a class="btn" href="/products">The founding deal</a>` : '');

/**
 * What sits beside the claim when the page itself offers it (its form): the claim call for an
 * agent or a script, the demo while it is open, and the deal. The page says the claim once.
 */
export function claimSide(base: string, listingId: string, step: NextStep, demoOpen: boolean): Html {
  const { label, curl } = stepCurl(base, step);
  const demo = demoOpen ? html`<a class="btn" href="${demoHrefOf(listingId)}">Take the free demo</a>` : '';
  return html`<details><summary>Claim with the API instead</summary>${codeBlock(label, curl, true)}</details>
  <p class="actions">${demo}${dealLink(true)}</p>`;
}

/**
 * The step for the listing whose page this is. Nothing when the step is this listing's own status
 * (the page is that status); the funnel's founding deal is linked once the listing is Live. While
 * the claim comes first, the demo not taken yet stays on offer beside it.
 */
export function nextStepPart(base: string, listingId: string, step: NextStep, live: boolean, demoOpen: boolean): Html | '' {
  const demoHref = demoHrefOf(listingId);
  const deal = dealLink(live);
  if (step.tool === 'take_demo') {
    return html`<p class="actions"><a class="btn primary" href="${demoHref}">Take the free demo</a>${deal}</p>`;
  }
  const demo = step.tool === 'claim_listing' && demoOpen ? html`<a class="btn" href="${demoHref}">Take the free demo</a>` : '';
  if (step.tool === 'check_status') {
    const id = String(step.args.id ?? '');
    if (id === listingId) return live ? html`<p class="actions">${deal}</p>` : '';
    return html`<p class="status">${step.why} <a href="${listingHref(id)}">Go to listing ${id}</a></p>`;
  }
  const { label, curl } = stepCurl(base, step);
  return html`<section class="panel" aria-labelledby="next-h">
  <h2 id="next-h">Next step: <code>${step.tool}</code></h2>
  <p>${step.why}</p>
  ${codeBlock(label, curl, true)}
  ${needsNote(step)}
  ${demo || deal ? html`<p class="actions">${demo}${deal}</p>` : ''}
</section>`;
}
