// The human pages (issue 16) in a real browser: Debian chromium driven by playwright-core, one
// browser for the whole file, against a real app on loopback with probing on. Every page loads
// with no console error (a CSP violation is one), the list form takes a local MCP server to Live,
// the try page calls the real /api/mcp, charts render, the keyboard reaches the main actions, a
// listing named with markup stays text, and the pages work without JS. Screenshots of every page
// at phone and desktop widths go to .tmp/screenshots (gitignored) for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { engine, startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { freePort, startEverything, type Peer } from './peers/mcp-servers.ts';

const SHOTS = path.join(process.cwd(), '.tmp', 'screenshots');
const WIDTHS = { phone: 390, desktop: 1280 } as const;
const XSS_NAME = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">Evil';

let app: TestApp;
let everything: Peer;
let browser: Browser;
let base: string;
let liveId = '';
let xssId = '';

before(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  everything = await startEverything();
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', REPUBLISH_MIN_INTERVAL_S: '0' } });
  base = await app.listen();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  // A listing whose only name is the publisher's markup (nothing answers at its port, so its card gives none).
  const xss = await postJson(app, '/api/publish', { url: `http://127.0.0.1:${await freePort()}/mcp`, name: XSS_NAME });
  assert.equal(xss.status, 200, JSON.stringify(xss.body));
  xssId = xss.body.id;
  await waitForLane(app, xssId, ['failed']);
});

after(async () => {
  await browser?.close();
  await app?.close();
  await everything?.close();
});

interface Opened {
  page: Page;
  context: BrowserContext;
  errors: string[];
  status: number | undefined;
  csp: string | undefined;
}

/** Opens a page in a fresh context and records every console error and uncaught exception. */
async function open(pathname: string, options: { width?: number; js?: boolean; dark?: boolean } = {}): Promise<Opened> {
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
  const res = await page.goto(`${base}${pathname}`, { waitUntil: 'load' });
  return { page, context, errors, status: res?.status(), csp: res?.headers()['content-security-policy'] };
}

const shotName = (pathname: string) => (pathname === '/' ? 'home' : pathname.replace(/^\//, '').replace(/\/.*$/, '') || 'page');

test('the list form takes a local MCP server to Live in the browser, then offers the demo', async () => {
  const { page, context, errors } = await open('/list');
  await page.fill('input[name=url]', everything.url);
  await page.click('#list-form button[type=submit]');
  await page.locator('#list-live').waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await page.locator('#list-status').innerText(), /^Live: Everything Reference Server scored \d+ of 100/);
  const demo = await page.locator('#demo-link').getAttribute('href');
  const m = /listing_id=([^&]+)/.exec(demo ?? '');
  assert.ok(m, `demo link ${demo}`);
  liveId = decodeURIComponent(m[1]!);
  assert.equal(await page.locator('#listing-link').getAttribute('href'), `/l/${liveId}`);
  assert.match(await page.locator('#demo-curl').innerText(), /curl/);
  // The real API agrees: the browser went through POST /api/publish and the status route.
  const status = await getJson(app, `/api/listings/status?id=${liveId}`);
  assert.equal(status.body.lane, 'active');
  await page.screenshot({ path: path.join(SHOTS, `${engine}-list-live-desktop.png`), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('every page loads with no console error, a strict CSP, and is screenshotted at phone and desktop widths', async () => {
  assert.ok(liveId, 'the list test ran first');
  const pages = ['/', '/list', '/products', '/try', '/talk', '/collab', '/grow', '/connectors', '/for-agents', `/l/${liveId}`];
  for (const pathname of pages) {
    for (const [label, width] of Object.entries(WIDTHS)) {
      const { page, context, errors, status, csp } = await open(pathname, { width });
      assert.equal(status, 200, pathname);
      assert.match(csp ?? '', /script-src 'self'/);
      assert.doesNotMatch(csp ?? '', /unsafe-inline/);
      assert.equal(await page.locator('h1').count(), 1, `${pathname}: one h1`);
      // Nothing overflows sideways on a phone: wide tables and code scroll inside their own box.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `${pathname} at ${width}px overflows by ${overflow}px`);
      await page.screenshot({ path: path.join(SHOTS, `${engine}-${shotName(pathname)}-${label}.png`), fullPage: true });
      assert.deepEqual(errors, [], `${pathname} at ${width}px`);
      await context.close();
    }
  }
  const dark = await open('/', { dark: true });
  await dark.page.screenshot({ path: path.join(SHOTS, `${engine}-home-desktop-dark.png`), fullPage: true });
  assert.deepEqual(dark.errors, []);
  await dark.context.close();
});

test('the try page runs improve_kernel and a search against the real MCP endpoint', async () => {
  const { page, context, errors } = await open('/try');
  await page.fill('#kernel-form input[name=agent_name]', 'browser-agent');
  await page.fill('#kernel-form textarea[name=goals]', 'Summarize pull requests for reviewers');
  const [call] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/api/mcp` && r.request().method() === 'POST'), page.click('#kernel-form button[type=submit]')]);
  assert.equal(call.status(), 200);
  assert.equal(JSON.parse(call.request().postData() ?? '{}').params.name, 'improve_kernel');
  const prompt = await page.locator('#kernel-out pre').innerText();
  assert.match(prompt, /browser-agent/);
  assert.match(prompt, /Summarize pull requests/);
  assert.ok(prompt.length <= 600);

  const [search] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/api/mcp`), page.fill('#search-form input[name=q]', 'echo').then(() => page.press('#search-form input[name=q]', 'Enter'))]);
  assert.equal(JSON.parse(search.request().postData() ?? '{}').params.name, 'ard_search');
  await page.locator('#search-out li a', { hasText: 'Everything Reference Server' }).waitFor();
  await page.screenshot({ path: path.join(SHOTS, `${engine}-try-results-desktop.png`), fullPage: true });
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
  await page.keyboard.press('Shift+Tab');
  await page.goto(`${base}/`);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => location.hash), '#main');
  await context.close();

  // The list form can be filled and sent from the keyboard alone.
  const list = await open('/list');
  await list.page.focus('input[name=url]');
  await list.page.keyboard.type(everything.url);
  await list.page.keyboard.press('Tab');
  await list.page.keyboard.press('Tab');
  await list.page.keyboard.press('Tab');
  assert.equal(await list.page.evaluate(() => document.activeElement?.textContent), 'List it');
  await list.page.keyboard.press('Enter');
  await list.page.locator('#list-live').waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(await list.page.evaluate(() => document.activeElement?.id), 'demo-link');
  await list.context.close();
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

test('without JS: the list form posts and lands on the listing page, the try search answers, charts are there', async () => {
  const { page, context } = await open('/list', { js: false });
  await page.fill('input[name=url]', everything.url);
  await Promise.all([page.waitForURL(/\/l\//), page.click('#list-form button[type=submit]')]);
  assert.equal(new URL(page.url()).pathname, `/l/${liveId}`);
  assert.match(await page.locator('h1').innerText(), /Everything Reference Server/);
  await page.goto(`${base}/try?q=echo`);
  assert.ok((await page.locator('#search-out li', { hasText: 'Everything Reference Server' }).count()) >= 1);
  await page.goto(`${base}/grow`);
  assert.equal(await page.locator('svg.chart').count(), 7);
  await context.close();
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
