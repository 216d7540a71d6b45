// The human pages in a real browser: Debian chromium driven by playwright-core, one browser for the
// whole file, against a real app on loopback with probing on and the catalog synced from a local
// upstream registry. Every page (and every state of a page a person meets: search results, a form's
// error, a Live, a pending and a failed listing, the 404) loads with no console error (a CSP
// violation is one) and no axe-core violation of WCAG 2.1 A and AA or axe's best practices, at
// phone and desktop widths in light and dark. The list form takes a local MCP server to Live, the
// try page calls the real /api/mcp, charts render, the keyboard reaches and works each page's main
// action with a visible, unclipped focus ring and never loses focus to <body>, a pending listing
// says when its probe settles without reloading itself, a listing that took its demo is offered
// the next step instead, a listing named with markup stays text, and the pages work without JS.
// Screenshots of every page at both widths in both schemes go to .tmp/screenshots (gitignored) for
// a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { engine, startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { setListingState } from './helpers/state.ts';
import { axeViolations, describeViolations } from './helpers/axe.ts';
import { freePort, startEverything, type Peer } from './peers/mcp-servers.ts';
import { startUpstreamRegistry, type UpstreamRegistry } from './peers/upstream-registry.ts';
import { syncCatalog } from '../src/catalog/sync.ts';
import { createCatalogClient } from '../src/catalog/client.ts';
import { loadCatalogItems } from '../src/catalog/load.ts';
import { remoteKey } from '../src/catalog/store.ts';
import { checkRound } from '../src/probe/catalog-check.ts';
import { createChecker } from '../src/probe/factory.ts';
import { PAGES } from '../src/http/pages/index.ts';

const SHOTS = path.join(process.cwd(), '.tmp', 'screenshots');
const WIDTHS = { phone: 390, desktop: 1280 } as const;
const XSS_NAME = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">Evil';
const DAY_MS = 86_400_000;

let app: TestApp;
let everything: Peer;
let upstream: UpstreamRegistry;
let browser: Browser;
let base: string;
let liveId = '';
let xssId = '';
let pendingId = '';

const now = () => app.clock.now().toISOString();

before(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  [everything, upstream] = await Promise.all([startEverything(), startUpstreamRegistry({ pageSize: 100 })]);
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', REPUBLISH_MIN_INTERVAL_S: '0' } });
  base = await app.listen();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const client = createCatalogClient(app.config);
  await syncCatalog({ db: app.services.db.kysely, clock: app.clock }, { upstream: upstream.base, fetcher: client, pageSize: 100, leaseS: 300, overlapS: 300 });
  await client.destroy();
  // A catalog entry whose remote is the everything server, checked twice (its page has a history and tools).
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, [
    {
      server: { name: 'io.example/everything-remote', title: 'Everything, remotely', description: 'The reference server, reached over streamable HTTP.', version: '1.0.0', remotes: [{ type: 'streamable-http', url: everything.url }] },
      _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2026-10-01T00:00:00.000Z' } },
    },
  ]);
  const checks = createChecker(app.config);
  for (let i = 0; i < 2; i++) await checkRound(app.services, checks, { holder: 'pages', concurrency: 1, keys: [remoteKey(everything.url)!] });
  await checks.close();
  // A listing whose only name is the publisher's markup (nothing answers at its port, so its card gives none).
  const xss = await postJson(app, '/api/publish', { url: `http://127.0.0.1:${await freePort()}/mcp`, name: XSS_NAME });
  assert.equal(xss.status, 200, JSON.stringify(xss.body));
  xssId = xss.body.id;
  // A listing waiting for its probe: its first probe fails, then it is queued again; nothing probes
  // it after that (tests drive the job runner themselves), so it waits as long as the file runs.
  const pending = await postJson(app, '/api/publish', { url: `http://127.0.0.1:${await freePort()}/pending`, name: 'Pending Probe' });
  assert.equal(pending.status, 200, JSON.stringify(pending.body));
  pendingId = pending.body.id;
  await Promise.all([waitForLane(app, xssId, ['failed']), waitForLane(app, pendingId, ['failed'])]);
  await setListingState(app, pendingId, { lane: 'queued', lane_reason: null }, now());
});

after(async () => {
  await browser?.close();
  await app?.close();
  await Promise.all([everything?.close(), upstream?.close()]);
});

interface Opened {
  page: Page;
  context: BrowserContext;
  errors: string[];
  status: number | undefined;
  csp: string | undefined;
}

/** A fresh context and page that records every console error and uncaught exception. */
async function viewer(options: { width?: number; js?: boolean; dark?: boolean } = {}) {
  const context = await browser.newContext({
    viewport: { width: options.width ?? WIDTHS.desktop, height: 860 },
    javaScriptEnabled: options.js ?? true,
    colorScheme: options.dark ? 'dark' : 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, context, errors };
}

/** Opens a page in a fresh context (see viewer). */
async function open(pathname: string, options: { width?: number; js?: boolean; dark?: boolean } = {}): Promise<Opened> {
  const v = await viewer(options);
  const res = await v.page.goto(`${base}${pathname}`, { waitUntil: 'load' });
  return { ...v, status: res?.status(), csp: res?.headers()['content-security-policy'] };
}

/** Fails with every axe violation on the page as it is now: rule, help, elements and why. */
async function assertAccessible(page: Page, where: string) {
  const violations = await axeViolations(page);
  assert.equal(violations.length, 0, `axe found violations:\n${describeViolations(where, violations)}`);
}

/** Presses Tab until the focused element matches `selector`; answers how many presses it took. */
async function tabTo(page: Page, selector: string, max = 80): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return i;
  }
  throw new Error(`${selector} not reached with ${max} presses of Tab on ${page.url()}`);
}

/**
 * Where the focused element's outline falls short: no outline, drawn past the viewport's sides, or
 * cut by an ancestor that clips its overflow. '' when the whole ring shows.
 */
async function focusRingProblem(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'focus is on <body>';
    const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const cs = getComputedStyle(el);
    const width = Number.parseFloat(cs.outlineWidth);
    if (cs.outlineStyle === 'none' || !(width >= 2)) return `${name} has no visible outline (${cs.outlineStyle} ${cs.outlineWidth})`;
    const reach = Math.max(0, width + (Number.parseFloat(cs.outlineOffset) || 0));
    const r = el.getBoundingClientRect();
    const ring = { left: r.left - reach, right: r.right + reach, top: r.top - reach, bottom: r.bottom + reach };
    if (ring.left < 0 || ring.right > document.documentElement.clientWidth) return `${name}'s ring runs past the viewport (${Math.round(ring.left)}..${Math.round(ring.right)})`;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (ring.left < b.left || ring.right > b.right || ring.top < b.top || ring.bottom > b.bottom) return `${name}'s ring is clipped by ${a.tagName.toLowerCase()}.${a.className}`;
    }
    return '';
  });
}

const activeElement = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { tag: a?.tagName.toLowerCase() ?? '', id: a?.id ?? '', text: (a?.textContent ?? '').trim() };
  });

test('the list form takes a local MCP server to Live in the browser, then offers the demo', async () => {
  const { page, context, errors } = await open('/list');
  await page.fill('input[name=url]', everything.url);
  await page.click('#list-form button[type=submit]');
  await page.locator('#list-live').waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await page.locator('#list-status').innerText(), /^Live: Everything Reference Server scored \d+ of 100/);
  assert.equal(await page.locator('#live-h').innerText(), 'It is Live. Take the free demo.');
  const demo = await page.locator('#demo-link').getAttribute('href');
  const m = /listing_id=([^&]+)/.exec(demo ?? '');
  assert.ok(m, `demo link ${demo}`);
  liveId = decodeURIComponent(m[1]!);
  assert.equal(await page.locator('#listing-link').getAttribute('href'), `/l/${liveId}`);
  assert.match(await page.locator('#demo-curl').innerText(), /curl/);
  // The real API agrees: the browser went through POST /api/publish and the status route.
  const status = await getJson(app, `/api/listings/status?id=${liveId}`);
  assert.equal(status.body.lane, 'active');
  await assertAccessible(page, '/list, Live');
  await page.screenshot({ path: path.join(SHOTS, `${engine}-list-live-desktop.png`), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

interface Checked {
  name: string;
  path: string;
  status?: number;
  /** Brings the page to the state to check (a form's error); the page's status is then its answer's. */
  reach?: (page: Page) => Promise<number | undefined>;
}

/** Every page and every state of one that a person meets; PAGES (index.ts) must all be here. */
const checkedPages = (): Checked[] => [
  { name: 'home', path: '/' },
  { name: 'home-search', path: '/?q=echo' },
  { name: 'list', path: '/list' },
  {
    name: 'list-error',
    path: '/list',
    status: 400,
    // The form posted without its script (submit() skips both the script and the browser's checks).
    reach: async (page) => {
      await page.fill('input[name=url]', 'ftp://example.com/x');
      const [res] = await Promise.all([page.waitForNavigation(), page.evaluate(() => (document.getElementById('list-form') as HTMLFormElement).submit())]);
      return res?.status();
    },
  },
  { name: 'products', path: '/products' },
  { name: 'try', path: '/try' },
  { name: 'try-search', path: '/try?q=weather' },
  { name: 'talk', path: '/talk' },
  { name: 'collab', path: '/collab' },
  { name: 'grow', path: '/grow' },
  { name: 'connectors', path: '/connectors' },
  { name: 'for-agents', path: '/for-agents' },
  { name: 'listing-live', path: `/l/${liveId}` },
  { name: 'listing-pending', path: `/l/${pendingId}` },
  { name: 'listing-failed', path: `/l/${xssId}` },
  { name: 'not-found', path: '/l/lst_nope', status: 404 },
  { name: 'catalog-live', path: '/c/io.example/everything-remote' },
  { name: 'catalog-unchecked', path: '/c/io.github.cloudflare/mcp-server-cloudflare' },
  { name: 'catalog-not-found', path: '/c/io.example/nothing', status: 404 },
];

test('every page: no console error, a strict CSP, no axe violation, nothing sideways, at phone and desktop widths in light and dark; screenshots', async () => {
  assert.ok(liveId, 'the list test ran first');
  const pages = checkedPages();
  for (const route of PAGES) {
    const param = route.path.search(/[:*]/);
    const covered = pages.some((c) => (param >= 0 ? c.path.startsWith(route.path.slice(0, param)) : c.path === route.path));
    assert.ok(covered, `${route.path} is checked`);
  }
  const problems: string[] = [];
  for (const [label, width] of Object.entries(WIDTHS)) {
    for (const dark of [false, true]) {
      const scheme = dark ? 'dark' : 'light';
      // One context per width and scheme, its page walked through every page in turn.
      const { page, context, errors } = await viewer({ width, dark });
      for (const c of pages) {
        const where = `${c.name} (${c.path}) at ${width}px ${scheme}`;
        errors.length = 0;
        const res = await page.goto(`${base}${c.path}`, { waitUntil: 'load' });
        const status = c.reach ? await c.reach(page) : res?.status();
        assert.equal(status, c.status ?? 200, where);
        const csp = res?.headers()['content-security-policy'] ?? '';
        assert.match(csp, /script-src 'self'/);
        assert.doesNotMatch(csp, /unsafe-inline/);
        assert.equal(await page.locator('h1').count(), 1, `${where}: one h1`);
        // Nothing overflows sideways on a phone: wide tables and code scroll inside their own box.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 1, `${where} overflows by ${overflow}px`);
        const violations = await axeViolations(page);
        if (violations.length) problems.push(describeViolations(where, violations));
        await page.screenshot({ path: path.join(SHOTS, `${engine}-${c.name}-${label}${dark ? '-dark' : ''}.png`), fullPage: true });
        // The browser reports a page's own error status as a failed load; nothing else may show.
        const expected = c.status ? new RegExp(`status of ${c.status} `) : undefined;
        assert.deepEqual(errors.filter((e) => !expected?.test(e)), [], where);
      }
      await context.close();
    }
  }
  assert.equal(problems.length, 0, `axe found violations:\n${problems.join('\n')}`);
});

test('the try page runs improve_kernel and a search from the keyboard, and catalog results link to their page', async () => {
  const { page, context, errors } = await open('/try');
  await page.fill('#kernel-form input[name=agent_name]', 'browser-agent');
  await page.fill('#kernel-form textarea[name=goals]', 'Summarize pull requests for reviewers');
  await tabTo(page, '#kernel-form button[type=submit]');
  const [call] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/api/mcp` && r.request().method() === 'POST'), page.keyboard.press('Space')]);
  assert.equal(call.status(), 200);
  assert.equal(JSON.parse(call.request().postData() ?? '{}').params.name, 'improve_kernel');
  const prompt = await page.locator('#kernel-out pre').innerText();
  assert.match(prompt, /browser-agent/);
  assert.match(prompt, /Summarize pull requests/);
  assert.ok(prompt.length <= 600);
  // The button was busy during the call, yet kept the keyboard's focus: nothing fell to <body>.
  assert.deepEqual(await activeElement(page), { tag: 'button', id: '', text: 'Run improve_kernel' });
  assert.equal(await page.locator('#kernel-form button').getAttribute('aria-disabled'), null);

  await tabTo(page, '#search-form input[name=q]');
  await page.keyboard.type('echo');
  const [search] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/api/mcp`), page.keyboard.press('Enter')]);
  assert.equal(JSON.parse(search.request().postData() ?? '{}').params.name, 'ard_search');
  await page.locator('#search-out li a', { hasText: 'Everything Reference Server' }).waitFor();
  assert.equal((await activeElement(page)).tag, 'input');

  // A catalog result is a link to its server's page, and it answers.
  await page.fill('#search-form input[name=q]', 'weather');
  await Promise.all([page.waitForResponse((r) => r.url() === `${base}/api/mcp`), page.keyboard.press('Enter')]);
  const catalogLinks = page.locator('#search-out li a[href^="/c/"]');
  await catalogLinks.first().waitFor();
  const href = (await catalogLinks.first().getAttribute('href'))!;
  assert.match(href, /^\/c\/[^/]+\/[^/]+$/);
  const record = await app.http.inject({ method: 'GET', url: href });
  assert.equal(record.statusCode, 200, record.body);
  assert.match(record.body, new RegExp(`<code>${href.slice(3).replace(/\./g, '\\.')}</code>`), 'the page of that server');
  const hits = await page.locator('#search-out li').count();
  assert.equal(await page.locator('#search-out li .row-main > a[href]').count(), hits, 'every result is a link');
  await assertAccessible(page, '/try with results');
  await page.screenshot({ path: path.join(SHOTS, `${engine}-try-results-desktop.png`), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();

  // Without JS the server renders the same links.
  const res = await app.http.inject({ method: 'GET', url: '/try?q=weather' });
  assert.match(res.body, /<a href="\/c\/[^"/]+\/[^"/]+">/);
});

test("a catalog entry's page: its remote's status now, a latency chart, its tools with their parameters and context cost, how to claim it", async () => {
  for (const width of [1280, 390]) {
    const { page, context, errors, status } = await open('/c/io.example/everything-remote', { width });
    assert.equal(status, 200);
    assert.match((await page.locator('h1').textContent()) ?? '', /Everything, remotely\s+live/);
    assert.match((await page.locator('table:has(caption#remotes)').textContent()) ?? '', /streamable-http\s*live/);
    assert.equal(await page.locator('svg.chart').count(), 1, 'the latency history of its remote');
    assert.ok((await page.locator('table:has(caption#tools) tbody tr').count()) >= 10, 'its tools');
    assert.match((await page.locator('table:has(caption#tools)').textContent()) ?? '', /echo.*message/s);
    assert.match((await page.locator('.stats').textContent()) ?? '', /Context cost\s*≈\d+/);
    assert.match((await page.locator('#claim-h + p + *').textContent()) ?? '', new RegExp(`"url":"${everything.url.replace(/[.]/g, '\\.')}"`));
    await assertAccessible(page, `catalog page at ${width}px`);
    await page.screenshot({ path: path.join(SHOTS, `${engine}-catalog-entry-${width}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  }
  // The entry and the Live listing of the same remote link to each other.
  const entry = await app.http.inject({ method: 'GET', url: '/c/io.example/everything-remote' });
  assert.match(entry.body, new RegExp(`<a href="/l/${liveId}">Live on Rollcall</a>`));
  const listing = await app.http.inject({ method: 'GET', url: `/l/${liveId}` });
  assert.match(listing.body, /<dt>In the catalog<\/dt><dd><a href="\/c\/io\.example\/everything-remote">io\.example\/everything-remote<\/a>/);
});

test("a Live listing's context cost: in its status, its search hit (max_tool_tokens narrows by it) and its page with its tools", async () => {
  const status = await getJson(app, `/api/listings/status?id=${liveId}`);
  const cost = status.body.probe.context_cost as { count: number; bytes: number; tokens_estimate: number; truncated: boolean };
  assert.ok(cost.count >= 10 && cost.bytes > 1000, JSON.stringify(cost));
  assert.deepEqual([cost.tokens_estimate, cost.truncated], [Math.ceil(cost.bytes / 4), false]);
  const search = async (extra: string) => (await getJson(app, `/api/ard/search?q=${encodeURIComponent(status.body.name)}&limit=20${extra}`)).body.hits as { listing_id?: string; health?: { status: string; tools: { count: number; tokens_estimate: number } | null } }[];
  const hit = (await search('')).find((h) => h.listing_id === liveId);
  assert.deepEqual(hit?.health?.tools, { count: cost.count, tokens_estimate: cost.tokens_estimate });
  assert.equal(hit?.health?.status, 'live');
  assert.ok((await search(`&max_tool_tokens=${cost.tokens_estimate}`)).some((h) => h.listing_id === liveId));
  assert.ok(!(await search(`&max_tool_tokens=${cost.tokens_estimate - 1}`)).some((h) => h.listing_id === liveId));
  const { page, context, errors } = await open(`/l/${liveId}`);
  assert.match((await page.locator('.stats').textContent()) ?? '', new RegExp(`Context cost\\s*≈${cost.tokens_estimate}`));
  assert.equal(await page.locator('table:has(caption#tools) tbody tr').count(), cost.count);
  assert.match((await page.locator('table:has(caption#tools)').textContent()) ?? '', /echo.*message/s);
  assert.deepEqual(errors, []);
  await context.close();
});

test('charts render from real data: the growth charts and the listing\'s probe history', async () => {
  const grow = await open('/grow');
  const charts = grow.page.locator('svg.chart');
  assert.equal(await charts.count(), 7);
  // The first chart is network_value's stored history: today's point exists (one Live listing).
  const value = charts.first();
  assert.match(await value.locator('title').first().textContent() ?? '', /Network value/);
  assert.ok(Number(await value.getAttribute('data-points')) >= 1);
  const sCurve = charts.nth(1);
  assert.ok(Number(await sCurve.getAttribute('data-points')) >= 1);
  assert.ok((await sCurve.locator('circle.dot').count()) >= 1);
  assert.match(await sCurve.locator('title').first().textContent() ?? '', /gone Live/);
  assert.ok((await grow.page.locator('svg.chart rect.bar').count()) >= 1);
  const box = await sCurve.boundingBox();
  assert.ok(box && box.width > 200 && box.height > 50, JSON.stringify(box));
  await grow.context.close();

  const listing = await open(`/l/${liveId}`);
  const history = listing.page.locator('svg.chart');
  assert.ok(Number(await history.getAttribute('data-points')) >= 1);
  assert.ok((await history.locator('circle.dot').count()) >= 1);
  // Score breakdown and badges with their snippets.
  assert.equal(await listing.page.locator('#score-h + .table-wrap tbody tr').count(), 6);
  const badges = listing.page.locator('.badges img');
  assert.equal(await badges.count(), 5);
  assert.ok(await badges.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the badge image loaded');
  assert.match(await listing.page.locator('figure.code pre').first().innerText(), new RegExp(`\\[!\\[.*\\]\\(.*/badge/live\\?id=${liveId}\\)\\]`));
  assert.deepEqual(listing.errors, []);
  await listing.context.close();
});

test('the grow page names the first day of its 90-day window', async () => {
  // 90 days, today included: today and the 89 before it (registry/page-reads.ts growthSeries).
  const today = now().slice(0, 10);
  const first = new Date(Date.parse(`${today}T00:00:00Z`) - 89 * DAY_MS).toISOString().slice(0, 10);
  const { page, context } = await open('/grow');
  const lede = await page.locator('.page-head .lede').innerText();
  assert.match(lede, /over the last 90 days, today included \(since (\d{4}-\d\d-\d\d)\)/);
  assert.ok(lede.includes(`(since ${first})`), lede);
  assert.ok(!lede.includes(`since ${today}`), lede);
  assert.equal(await page.locator('.page-head .lede time').getAttribute('datetime'), first);
  await context.close();
});

test('the keyboard reaches the main actions: skip link, navigation, forms and their buttons', async () => {
  const { page, context } = await open('/');
  const reached: string[] = [];
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    reached.push(await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      return `${a?.tagName.toLowerCase()}:${(a?.getAttribute('href') ?? a?.getAttribute('name') ?? a?.textContent ?? '').trim()}`;
    }));
  }
  assert.equal(reached[0], 'a:#main');
  for (const want of ['a:/list', 'a:/try', 'a:/for-agents', 'input:q', 'button:Search']) assert.ok(reached.includes(want), `${want} in ${reached.join(' ')}`);
  // The skip link moves focus to the content.
  await page.goto(`${base}/`);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => location.hash), '#main');
  await context.close();

  // The list form from the keyboard alone: Tab to the URL field, type, Enter sends it.
  const list = await open('/list', { width: WIDTHS.phone });
  await tabTo(list.page, 'input[name=url]');
  await list.page.keyboard.type(everything.url);
  await list.page.keyboard.press('Enter');
  await list.page.locator('#list-live').waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal((await activeElement(list.page)).id, 'demo-link');
  assert.equal(await focusRingProblem(list.page), '');
  await list.context.close();
});

test('a failed list submit keeps the keyboard focus where it was and says what went wrong', async () => {
  const { page, context, errors } = await open('/list', { width: WIDTHS.phone });
  await tabTo(page, 'input[name=url]');
  // A valid URL to the browser, refused by publish (http and https only).
  await page.keyboard.type('ftp://example.com/x');
  await tabTo(page, '#list-form button[type=submit]');
  const [answer] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/api/publish`), page.keyboard.press('Space')]);
  assert.equal(answer.status(), 400);
  await page.locator('#list-status.bad').waitFor();
  assert.match(await page.locator('#list-status').innerText(), /http/);
  assert.deepEqual(await activeElement(page), { tag: 'button', id: '', text: 'List it' });
  assert.equal(await focusRingProblem(page), '');
  // Enter in the field sends it again, and the focus stays in the field.
  await page.focus('input[name=url]');
  await Promise.all([page.waitForResponse((r) => r.url() === `${base}/api/publish`), page.keyboard.press('Enter')]);
  assert.equal((await activeElement(page)).tag, 'input');
  await assertAccessible(page, '/list after a failed submit');
  // The browser reports the 400 answer as a failed load; nothing else may show.
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  await context.close();
});

test('the navigation: every link in view and a whole focus ring at 390 px and 1280 px', async () => {
  for (const width of Object.values(WIDTHS)) {
    const { page, context } = await open('/try', { width });
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('nav[aria-label="Main"] a')]
        .filter((a) => {
          const r = a.getBoundingClientRect();
          return r.left < 0 || r.right > document.documentElement.clientWidth || r.width === 0;
        })
        .map((a) => a.textContent),
    );
    assert.deepEqual(cut, [], `nav links cut off at ${width}px`);
    for (const href of ['/list', '/try', '/for-agents']) {
      await tabTo(page, `nav a[href="${href}"]`);
      assert.equal(await focusRingProblem(page), '', `${href} at ${width}px`);
    }
    await page.screenshot({ path: path.join(SHOTS, `${engine}-nav-focus-${width}.png`) });
    await context.close();
  }
});

test('each page\'s main action is reached with Tab and shows its focus ring, and a wide table scrolls from the keyboard', async () => {
  const actions: { path: string; selector: string }[] = [
    { path: '/', selector: 'main a.btn.primary[href="/list"]' },
    { path: '/products', selector: 'main a.btn.primary[href="/list"]' },
    { path: '/products', selector: '.table-wrap[role=region][aria-labelledby="calls-t"]' },
    { path: '/for-agents', selector: 'main a.btn.primary[href="/list"]' },
    { path: '/grow', selector: '.table-wrap[role=region]' },
    { path: '/connectors', selector: '.table-wrap[role=region]' },
    { path: '/talk', selector: 'main a[href="/api/feed"]' },
    { path: '/collab', selector: 'main figure.code pre' },
    { path: `/l/${liveId}`, selector: 'main a.btn.primary' },
    { path: `/l/${pendingId}`, selector: '#wait-refresh' },
  ];
  const { page, context, errors } = await viewer({ width: WIDTHS.phone });
  for (const a of actions) {
    await page.goto(`${base}${a.path}`);
    await tabTo(page, a.selector);
    assert.equal(await focusRingProblem(page), '', `${a.path} ${a.selector}`);
  }
  // The growth table is wider than a phone: its focused box scrolls with the arrow keys.
  await page.goto(`${base}/grow`);
  await tabTo(page, '.table-wrap[role=region]');
  const wrap = page.locator('.table-wrap[role=region]');
  assert.ok(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth), 'the table is wider than the phone');
  assert.equal(await wrap.getAttribute('aria-labelledby'), 'nums-t');
  assert.match(await page.locator('#nums-t').textContent() ?? '', /per UTC day/);
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => (document.querySelector('.table-wrap[role=region]')?.scrollLeft ?? 0) > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a listing that waits for its probe never reloads itself: a Refresh status link, and the change of lane said in a live region', async () => {
  const res = await app.http.inject({ method: 'GET', url: `/l/${pendingId}` });
  assert.doesNotMatch(res.body, /http-equiv/i);
  assert.match(res.body, new RegExp(`<a class="btn" id="wait-refresh" href="/l/${pendingId}">Refresh status</a>`));

  const { page, context, errors } = await open(`/l/${pendingId}`);
  assert.equal(await page.locator('meta[http-equiv]').count(), 0);
  const msg = page.locator('#wait-msg');
  assert.equal(await msg.getAttribute('aria-live'), 'polite');
  assert.match(await msg.innerText(), /probe is running \(lane: queued\)/);
  const polls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/listings/status')) polls.push(r.url());
  });
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  await setListingState(app, pendingId, { lane: 'failed', lane_reason: 'probe_timeout' }, now());
  await page.waitForFunction(() => /not Live \(failed: probe_timeout\)/.test(document.getElementById('wait-msg')?.textContent ?? ''), undefined, { timeout: 15_000 });
  assert.ok(polls.length >= 1 && polls.every((u) => u.endsWith(`/api/listings/status?id=${pendingId}`)), polls.join(' '));
  assert.equal(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument), true, 'the page did not reload');
  // Reloading is the person's choice: the link shows the listing as it is now.
  await tabTo(page, '#wait-refresh');
  await Promise.all([page.waitForURL(`${base}/l/${pendingId}`), page.keyboard.press('Enter')]);
  await page.locator('h1 .pill.bad').waitFor();
  assert.equal(await page.locator('#wait-msg').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
  await setListingState(app, pendingId, { lane: 'queued', lane_reason: null }, now());
});

test('a listing named with markup is shown as text, never run', async () => {
  for (const pathname of [`/l/${xssId}`, '/', '/talk']) {
    const { page, context, errors } = await open(pathname);
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, pathname);
    assert.equal(await page.locator('img[src="x"]').count(), 0, pathname);
    assert.equal(await page.locator('script').count(), 1, `${pathname}: only site.js`);
    assert.ok((await page.locator('body').innerText()).includes('<script>window.__xss=1</script>'), `${pathname} shows the name as text`);
    assert.deepEqual(errors, [], pathname);
    await context.close();
  }
  const res = await app.http.inject({ method: 'GET', url: `/l/${xssId}` });
  assert.ok(!res.body.includes('<script>window'));
  assert.ok(res.body.includes('&lt;script&gt;window.__xss=1&lt;/script&gt;'));
});

test('without JS: the list form posts and lands on the listing page, the try search answers, charts are there, a pending listing offers its link', async () => {
  const { page, context } = await open('/list', { js: false });
  await page.fill('input[name=url]', everything.url);
  await Promise.all([page.waitForURL(/\/l\//), page.click('#list-form button[type=submit]')]);
  assert.equal(new URL(page.url()).pathname, `/l/${liveId}`);
  assert.match(await page.locator('h1').innerText(), /Everything Reference Server/);
  await page.goto(`${base}/try?q=echo`);
  assert.ok((await page.locator('#search-out li', { hasText: 'Everything Reference Server' }).count()) >= 1);
  await page.goto(`${base}/grow`);
  assert.equal(await page.locator('svg.chart').count(), 7);
  await page.goto(`${base}/l/${pendingId}`);
  await Promise.all([page.waitForURL(`${base}/l/${pendingId}`), page.click('#wait-refresh')]);
  assert.match(await page.locator('#wait-msg').innerText(), /does not reload itself/);
  await context.close();
});

test('a listing that took its demo is offered the next step, not the demo again: its page and the list form', async () => {
  await waitForLane(app, liveId, ['active']);
  const demo = await postJson(app, '/api/products/demo', { listing_id: liveId });
  assert.equal(demo.status, 200, JSON.stringify(demo.body));
  const status = await getJson(app, `/api/listings/status?id=${liveId}`);
  assert.equal(status.body.demoed, true);
  assert.equal(status.body.next_step.tool, 'leave_feedback');

  const listing = await open(`/l/${liveId}`);
  const text = await listing.page.locator('main').innerText();
  assert.ok(!text.includes('Take the free demo'), text);
  assert.equal(await listing.page.locator('a[href^="/api/products/demo"]').count(), 0);
  assert.match(await listing.page.locator('#next-h').innerText(), /Next step: leave_feedback/);
  assert.ok(text.includes(status.body.next_step.why), 'the status answer\'s own next_step');
  assert.match(await listing.page.locator('section[aria-labelledby="next-h"] pre').innerText(), /-X POST .*\/api\/products\/feedback[\s\S]*authorization: Bearer <owner token>[\s\S]*"rating":"<rating>"/);
  await assertAccessible(listing.page, `/l/${liveId} after its demo`);
  await listing.page.screenshot({ path: path.join(SHOTS, `${engine}-listing-demoed-desktop.png`), fullPage: true });
  assert.deepEqual(listing.errors, []);
  await listing.context.close();

  const list = await open('/list');
  await list.page.fill('input[name=url]', everything.url);
  await list.page.click('#list-form button[type=submit]');
  await list.page.locator('#list-live').waitFor({ state: 'visible', timeout: 30_000 });
  const live = await list.page.locator('#list-live').innerText();
  assert.ok(!live.includes('Take the free demo'), live);
  assert.match(live, /^It is Live\.\s+Next: Demoed: rate it/);
  assert.equal(await list.page.locator('#demo-link').isVisible(), false);
  assert.equal((await activeElement(list.page)).id, 'listing-link');
  await assertAccessible(list.page, '/list, Live after its demo');
  assert.deepEqual(list.errors, []);
  await list.context.close();
});

test('doors around the pages: JSON API unchanged, assets cached, unknown listing is a 404 page', async () => {
  const form = await app.http.inject({ method: 'POST', url: '/api/publish', payload: 'url=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(form.statusCode, 415);
  const bad = await app.http.inject({ method: 'POST', url: '/list', payload: 'url=ftp%3A%2F%2Fx', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.headers['content-type'] as string, /text\/html/);
  const missing = await app.http.inject({ method: 'GET', url: '/l/lst_nope' });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.body, /Not found/);
  const home = await app.http.inject({ method: 'GET', url: '/' });
  const css = /href="(\/assets\/site\.css\?v=[^"]+)"/.exec(home.body)![1]!;
  const asset = await app.http.inject({ method: 'GET', url: css });
  assert.equal(asset.statusCode, 200);
  assert.match(asset.headers['cache-control'] as string, /max-age=31536000, immutable/);
  const again = await app.http.inject({ method: 'GET', url: css, headers: { 'if-none-match': asset.headers.etag as string } });
  assert.equal(again.statusCode, 304);
  const openapi = await getJson(app, '/openapi.json');
  assert.ok(openapi.body.paths['/badge/{name}'].get);
});
