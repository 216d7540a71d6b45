// The world the page tests run in: Debian chromium driven by playwright-core, a real app on loopback
// with probing on, the catalog synced from a local upstream registry, a catalog entry whose remote
// (the everything server) was checked twice, a listing named with markup whose probe failed, and a
// listing that waits for its probe. Each page test file starts its own (a file is one process), so
// the files run side by side and each stays well inside the runner's per-file time limit.
// Also the browser helpers those files share: a viewer that records console errors, Tab walking,
// the focus ring's check and axe.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startApp, postJson, type TestApp } from './app.ts';
import { waitForLane } from './wait.ts';
import { setListingState } from './state.ts';
import { axeViolations, describeViolations } from './axe.ts';
import { freePort, startEverything, type Peer } from '../peers/mcp-servers.ts';
import { startUpstreamRegistry, type UpstreamRegistry } from '../peers/upstream-registry.ts';
import { syncCatalog } from '../../src/catalog/sync.ts';
import { createCatalogClient } from '../../src/catalog/client.ts';
import { loadCatalogItems } from '../../src/catalog/load.ts';
import { remoteKey } from '../../src/catalog/store.ts';
import { checkRound } from '../../src/probe/catalog-check.ts';
import { createChecker } from '../../src/probe/factory.ts';

export const SHOTS = path.join(process.cwd(), '.tmp', 'screenshots');
export const WIDTHS = { phone: 390, desktop: 1280 } as const;
export const XSS_NAME = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">Evil';
/** The catalog entry whose remote is the everything server. */
export const CHECKED_ENTRY = 'io.example/everything-remote';

export interface ViewerOptions {
  width?: number;
  js?: boolean;
  dark?: boolean;
}

export interface Opened {
  page: Page;
  context: BrowserContext;
  errors: string[];
  status: number | undefined;
  csp: string | undefined;
}

export interface PagesWorld {
  app: TestApp;
  everything: Peer;
  browser: Browser;
  base: string;
  xssId: string;
  pendingId: string;
  now(): string;
  /** A fresh context and page that records every console error and uncaught exception. */
  viewer(options?: ViewerOptions): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  /** Opens a page in a fresh context (see viewer). */
  open(pathname: string, options?: ViewerOptions): Promise<Opened>;
  close(): Promise<void>;
}

export async function startPagesWorld(): Promise<PagesWorld> {
  fs.mkdirSync(SHOTS, { recursive: true });
  let everything: Peer | undefined;
  let upstream: UpstreamRegistry | undefined;
  let app: TestApp | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await app?.close();
    await Promise.all([everything?.close(), upstream?.close()]);
  };
  try {
    [everything, upstream] = await Promise.all([startEverything(), startUpstreamRegistry({ pageSize: 100 })]);
    app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', REPUBLISH_MIN_INTERVAL_S: '0' } });
    const started = app;
    const base = await app.listen();
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const client = createCatalogClient(app.config);
    await syncCatalog({ db: app.services.db.kysely, clock: app.clock }, { upstream: upstream.base, fetcher: client, pageSize: 100, leaseS: 300, overlapS: 300 });
    await client.destroy();
    // A catalog entry whose remote is the everything server, checked twice (its page has a history and tools).
    await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, [
      {
        server: { name: CHECKED_ENTRY, title: 'Everything, remotely', description: 'The reference server, reached over streamable HTTP.', version: '1.0.0', remotes: [{ type: 'streamable-http', url: everything.url }] },
        _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2026-10-01T00:00:00.000Z' } },
      },
    ]);
    const checks = createChecker(app.config);
    for (let i = 0; i < 2; i++) await checkRound(app.services, checks, { holder: 'pages', concurrency: 1, keys: [remoteKey(everything.url)!] });
    await checks.close();
    // A listing whose only name is the publisher's markup (nothing answers at its port, so its card gives none).
    const xss = await postJson(app, '/api/publish', { url: `http://127.0.0.1:${await freePort()}/mcp`, name: XSS_NAME });
    assert.equal(xss.status, 200, JSON.stringify(xss.body));
    // A listing waiting for its probe: its first probe fails, then it is queued again; nothing probes
    // it after that (tests drive the job runner themselves), so it waits as long as the file runs.
    const pending = await postJson(app, '/api/publish', { url: `http://127.0.0.1:${await freePort()}/pending`, name: 'Pending Probe' });
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    await Promise.all([waitForLane(app, xss.body.id, ['failed']), waitForLane(app, pending.body.id, ['failed'])]);
    const now = () => started.clock.now().toISOString();
    await setListingState(app, pending.body.id, { lane: 'queued', lane_reason: null }, now());

    const shared = browser;
    const viewer = async (options: ViewerOptions = {}) => {
      const context = await shared.newContext({
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
    };
    const open = async (pathname: string, options: ViewerOptions = {}): Promise<Opened> => {
      const v = await viewer(options);
      const res = await v.page.goto(`${base}${pathname}`, { waitUntil: 'load' });
      return { ...v, status: res?.status(), csp: res?.headers()['content-security-policy'] };
    };
    return { app, everything, browser, base, xssId: xss.body.id, pendingId: pending.body.id, now, viewer, open, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Fails with every axe violation on the page as it is now: rule, help, elements and why. */
export async function assertAccessible(page: Page, where: string) {
  const violations = await axeViolations(page);
  assert.equal(violations.length, 0, `axe found violations:\n${describeViolations(where, violations)}`);
}

/** Presses Tab until the focused element matches `selector`; answers how many presses it took. */
export async function tabTo(page: Page, selector: string, max = 80): Promise<number> {
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
export async function focusRingProblem(page: Page): Promise<string> {
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

export const activeElement = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { tag: a?.tagName.toLowerCase() ?? '', id: a?.id ?? '', text: (a?.textContent ?? '').trim() };
  });
