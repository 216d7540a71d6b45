// How every page looks and reads, in a real browser (helpers/pages-browser.ts). Every page, and
// every state of a page a person meets (search results, a form's error, a Live, a pending and a
// failed listing, a listing's claim page before and after a check, a checked and an unchecked
// catalog entry, the 404), loads with no console error (a CSP violation is one) and no axe-core
// violation of WCAG 2.1 A and AA or axe's best practices, with nothing sideways, at phone and
// desktop widths in light and dark; the navigation and each page's main action show a whole focus
// ring. Screenshots of every page at both widths in both schemes go to .tmp/screenshots
// (gitignored) for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { engine, postJson } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { axeViolations, describeViolations } from './helpers/axe.ts';
import { CHECKED_ENTRY, focusRingProblem, SHOTS, startPagesWorld, tabTo, WIDTHS, type PagesWorld } from './helpers/pages-browser.ts';
import { PAGES } from '../src/http/pages/index.ts';

let world: PagesWorld;
let liveId = '';

before(async () => {
  world = await startPagesWorld();
  // A Live listing: the everything server, published through the API (pages.test.ts lists it through the form).
  const published = await postJson(world.app, '/api/publish', { url: world.everything.url });
  assert.equal(published.status, 200, JSON.stringify(published.body));
  liveId = published.body.id;
  await waitForLane(world.app, liveId, ['active']);
});

after(async () => {
  await world?.close();
});

interface Checked {
  name: string;
  path: string;
  status?: number;
  /** Brings the page to the state to check (a form's error); the page's status is then its answer's. */
  reach?: (page: Page) => Promise<number | undefined>;
}

/** Starts a claim from an unclaimed Live listing's page: the claim page's status. */
async function startClaim(page: Page): Promise<number | undefined> {
  const [res] = await Promise.all([page.waitForNavigation(), page.click('section[aria-labelledby="claim-h"] button')]);
  return res?.status();
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
  // The claim flow: the claim page (claim_listing), and after a check that found no proof.
  { name: 'listing-claim', path: `/l/${liveId}`, reach: startClaim },
  {
    name: 'listing-claim-not-yet',
    path: `/l/${liveId}`,
    status: 422,
    reach: async (page) => {
      await startClaim(page);
      const [res] = await Promise.all([page.waitForNavigation(), page.click('section[aria-labelledby="check-h"] button')]);
      return res?.status();
    },
  },
  { name: 'listing-pending', path: `/l/${world.pendingId}` },
  { name: 'listing-failed', path: `/l/${world.xssId}` },
  { name: 'not-found', path: '/l/lst_nope', status: 404 },
  { name: 'catalog-live', path: `/c/${CHECKED_ENTRY}` },
  { name: 'catalog-unchecked', path: '/c/io.github.cloudflare/mcp-server-cloudflare' },
  { name: 'catalog-not-found', path: '/c/io.example/nothing', status: 404 },
];

test('every page: no console error, a strict CSP, no axe violation, nothing sideways, at phone and desktop widths in light and dark; screenshots', async () => {
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
      const { page, context, errors } = await world.viewer({ width, dark });
      for (const c of pages) {
        const where = `${c.name} (${c.path}) at ${width}px ${scheme}`;
        errors.length = 0;
        const res = await page.goto(`${world.base}${c.path}`, { waitUntil: 'load' });
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

test('the navigation: every link in view and a whole focus ring at 390 px and 1280 px', async () => {
  for (const width of Object.values(WIDTHS)) {
    const { page, context } = await world.open('/try', { width });
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
    { path: `/l/${liveId}`, selector: 'main section[aria-labelledby="claim-h"] summary' },
    { path: `/l/${liveId}`, selector: 'main section[aria-labelledby="claim-h"] button[type=submit]' },
    { path: `/l/${world.pendingId}`, selector: '#wait-refresh' },
  ];
  const { page, context, errors } = await world.viewer({ width: WIDTHS.phone });
  for (const a of actions) {
    await page.goto(`${world.base}${a.path}`);
    await tabTo(page, a.selector);
    assert.equal(await focusRingProblem(page), '', `${a.path} ${a.selector}`);
  }
  // The growth table is wider than a phone: its focused box scrolls with the arrow keys.
  await page.goto(`${world.base}/grow`);
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
