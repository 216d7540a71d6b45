// The human pages in a real browser (helpers/pages-browser.ts: Debian chromium driven by
// playwright-core, a real app on loopback with probing on and the catalog synced from a local
// upstream registry): what a person does on them. The list form takes a local MCP server to Live,
// the try page calls the real /api/mcp, a catalog entry's page shows its remote's status, tools and
// cost, charts render, the keyboard reaches and works the forms and never loses focus to <body>, a
// pending listing says when its probe settles without reloading itself, a listing that took its
// demo is offered the next step instead, a listing named with markup stays text, and the pages work
// without JS. pages-look.test.ts checks how every page looks and reads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { engine, postJson, getJson } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { setListingState } from './helpers/state.ts';
import { ownListing } from './helpers/owners.ts';
import { freePort, startModernMcp } from './peers/mcp-servers.ts';
import { newClaimSpots } from './peers/claim-spots.ts';
import type { ManualClock } from '../src/platform/clock.ts';
import { activeElement, assertAccessible, focusRingProblem, SHOTS, startPagesWorld, tabTo, WIDTHS, type PagesWorld } from './helpers/pages-browser.ts';

const DAY_MS = 86_400_000;

let world: PagesWorld;
let liveId = '';

before(async () => {
  world = await startPagesWorld();
});

after(async () => {
  await world?.close();
});

test('the list form takes a local MCP server to Live in the browser, then offers the claim, with the demo beside it', async () => {
  const { page, context, errors } = await world.open('/list');
  await page.fill('input[name=url]', world.everything.url);
  await page.click('#list-form button[type=submit]');
  await page.locator('#list-live').waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await page.locator('#list-status').innerText(), /^Live: Everything Reference Server scored \d+ of 100/);
  // Unclaimed, its next step is the claim; the demo is on offer beside it until one is taken.
  assert.equal(await page.locator('#live-h').innerText(), 'It is Live. Claim it, then take the free demo.');
  assert.match(await page.locator('#live-next').innerText(), /^Next: Live and unclaimed: its owner claims it first \(claim_listing/);
  assert.equal((await activeElement(page)).id, 'listing-link');
  const demo = await page.locator('#demo-link').getAttribute('href');
  const m = /listing_id=([^&]+)/.exec(demo ?? '');
  assert.ok(m, `demo link ${demo}`);
  liveId = decodeURIComponent(m[1]!);
  assert.equal(await page.locator('#listing-link').getAttribute('href'), `/l/${liveId}`);
  assert.match(await page.locator('#demo-curl').innerText(), /curl/);
  // The real API agrees: the browser went through POST /api/publish and the status route.
  const status = await getJson(world.app, `/api/listings/status?id=${liveId}`);
  assert.equal(status.body.lane, 'active');
  assert.deepEqual([status.body.next_step.tool, status.body.next_step.args], ['claim_listing', { listing_id: liveId }]);
  await assertAccessible(page, '/list, Live');
  await page.screenshot({ path: path.join(SHOTS, `${engine}-list-live-desktop.png`), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the try page runs improve_kernel and a search from the keyboard, and catalog results link to their page', async () => {
  const { page, context, errors } = await world.open('/try');
  await page.fill('#kernel-form input[name=agent_name]', 'browser-agent');
  await page.fill('#kernel-form textarea[name=goals]', 'Summarize pull requests for reviewers');
  await tabTo(page, '#kernel-form button[type=submit]');
  const [call] = await Promise.all([page.waitForResponse((r) => r.url() === `${world.base}/api/mcp` && r.request().method() === 'POST'), page.keyboard.press('Space')]);
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
  const [search] = await Promise.all([page.waitForResponse((r) => r.url() === `${world.base}/api/mcp`), page.keyboard.press('Enter')]);
  assert.equal(JSON.parse(search.request().postData() ?? '{}').params.name, 'ard_search');
  await page.locator('#search-out li a', { hasText: 'Everything Reference Server' }).waitFor();
  assert.equal((await activeElement(page)).tag, 'input');

  // A catalog result is a link to its server's page, and it answers.
  await page.fill('#search-form input[name=q]', 'weather');
  await Promise.all([page.waitForResponse((r) => r.url() === `${world.base}/api/mcp`), page.keyboard.press('Enter')]);
  const catalogLinks = page.locator('#search-out li a[href^="/c/"]');
  await catalogLinks.first().waitFor();
  const href = (await catalogLinks.first().getAttribute('href'))!;
  assert.match(href, /^\/c\/[^/]+\/[^/]+$/);
  const record = await world.app.http.inject({ method: 'GET', url: href });
  assert.equal(record.statusCode, 200, record.body);
  assert.match(record.body, new RegExp(`<code>${href.slice(3).replace(/\./g, '\\.')}</code>`), 'the page of that server');
  const hits = await page.locator('#search-out li').count();
  assert.equal(await page.locator('#search-out li .row-main > a[href]').count(), hits, 'every result is a link');
  await assertAccessible(page, '/try with results');
  await page.screenshot({ path: path.join(SHOTS, `${engine}-try-results-desktop.png`), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();

  // Without JS the server renders the same links.
  const res = await world.app.http.inject({ method: 'GET', url: '/try?q=weather' });
  assert.match(res.body, /<a href="\/c\/[^"/]+\/[^"/]+">/);
});

test("a catalog entry's page: its remote's status now, a latency chart, its tools with their parameters and context cost, how to claim it", async () => {
  for (const width of [1280, 390]) {
    const { page, context, errors, status } = await world.open('/c/io.example/everything-remote', { width });
    assert.equal(status, 200);
    assert.match((await page.locator('h1').textContent()) ?? '', /Everything, remotely\s+live/);
    assert.match((await page.locator('table:has(caption#remotes)').textContent()) ?? '', /streamable-http\s*live/);
    assert.equal(await page.locator('svg.chart').count(), 1, 'the latency history of its remote');
    assert.ok((await page.locator('table:has(caption#tools) tbody tr').count()) >= 10, 'its tools');
    assert.match((await page.locator('table:has(caption#tools)').textContent()) ?? '', /echo.*message/s);
    assert.match((await page.locator('.stats').textContent()) ?? '', /Context cost\s*≈\d+/);
    assert.match((await page.locator('#claim-h + p + *').textContent()) ?? '', new RegExp(`"url":"${world.everything.url.replace(/[.]/g, '\\.')}"`));
    await assertAccessible(page, `catalog page at ${width}px`);
    await page.screenshot({ path: path.join(SHOTS, `${engine}-catalog-entry-${width}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  }
  // The entry and the Live listing of the same remote link to each other.
  const entry = await world.app.http.inject({ method: 'GET', url: '/c/io.example/everything-remote' });
  assert.match(entry.body, new RegExp(`<a href="/l/${liveId}">Live on Rollcall</a>`));
  const listing = await world.app.http.inject({ method: 'GET', url: `/l/${liveId}` });
  assert.match(listing.body, /<dt>In the catalog<\/dt><dd><a href="\/c\/io\.example\/everything-remote">io\.example\/everything-remote<\/a>/);
});

test("a Live listing's context cost: in its status, its search hit (max_tool_tokens narrows by it) and its page with its tools", async () => {
  const status = await getJson(world.app, `/api/listings/status?id=${liveId}`);
  const cost = status.body.probe.context_cost as { count: number; bytes: number; tokens_estimate: number; truncated: boolean };
  assert.ok(cost.count >= 10 && cost.bytes > 1000, JSON.stringify(cost));
  assert.deepEqual([cost.tokens_estimate, cost.truncated], [Math.ceil(cost.bytes / 4), false]);
  const search = async (extra: string) => (await getJson(world.app, `/api/ard/search?q=${encodeURIComponent(status.body.name)}&limit=20${extra}`)).body.hits as { listing_id?: string; health?: { status: string; tools: { count: number; tokens_estimate: number } | null } }[];
  const hit = (await search('')).find((h) => h.listing_id === liveId);
  assert.deepEqual(hit?.health?.tools, { count: cost.count, tokens_estimate: cost.tokens_estimate });
  assert.equal(hit?.health?.status, 'live');
  assert.ok((await search(`&max_tool_tokens=${cost.tokens_estimate}`)).some((h) => h.listing_id === liveId));
  assert.ok(!(await search(`&max_tool_tokens=${cost.tokens_estimate - 1}`)).some((h) => h.listing_id === liveId));
  const { page, context, errors } = await world.open(`/l/${liveId}`);
  assert.match((await page.locator('.stats').textContent()) ?? '', new RegExp(`Context cost\\s*≈${cost.tokens_estimate}`));
  assert.equal(await page.locator('table:has(caption#tools) tbody tr').count(), cost.count);
  assert.match((await page.locator('table:has(caption#tools)').textContent()) ?? '', /echo.*message/s);
  assert.deepEqual(errors, []);
  await context.close();
});

test('charts render from real data: the growth charts and the listing\'s probe history', async () => {
  const grow = await world.open('/grow');
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

  const listing = await world.open(`/l/${liveId}`);
  const history = listing.page.locator('svg.chart');
  assert.ok(Number(await history.getAttribute('data-points')) >= 1);
  assert.ok((await history.locator('circle.dot').count()) >= 1);
  // Score breakdown and badges with their snippets.
  assert.equal(await listing.page.locator('#score-h + .table-wrap tbody tr').count(), 6);
  const badges = listing.page.locator('.badges img');
  assert.equal(await badges.count(), 5);
  assert.ok(await badges.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the badge image loaded');
  assert.match(await listing.page.locator('section[aria-labelledby="badge-h"] figure.code pre').first().innerText(), new RegExp(`\\[!\\[.*\\]\\(.*/badge/live\\?id=${liveId}\\)\\]`));
  assert.deepEqual(listing.errors, []);
  await listing.context.close();
});

test('a listing that failed its probe is shown and counted as failed on the home page, never as listed or clean', async () => {
  const failed = await getJson(world.app, `/api/listings/status?id=${world.xssId}`);
  assert.equal(failed.body.lane, 'failed');
  const { page, context, errors } = await world.open('/');
  const stats = (await page.locator('.stats').innerText()).replace(/\s+/g, ' ');
  assert.doesNotMatch(stats, /clean/i, 'no count of clean checks that a failed listing could be in');
  assert.match(stats, /Failed their probe \d+ not listed/);
  const failedCount = Number(/Failed their probe (\d+)/.exec(stats)![1]);
  const lanes = await world.app.sql.selectFrom('listings').select('lane').where('deleted_at', 'is', null).execute();
  assert.equal(failedCount, lanes.filter((l) => l.lane === 'failed').length);
  assert.match(stats, new RegExp(`Live listings ${lanes.filter((l) => l.lane === 'active').length} `));
  // Its event in the feed says it was submitted, and that it failed.
  const row = page.locator('#feed-h ~ ul li', { has: page.locator(`a[href="/l/${world.xssId}"]`) });
  const said = (await row.first().innerText()).replace(/\s+/g, ' ');
  assert.doesNotMatch(said, /listed/, said);
  assert.match(said, /was submitted failed/);
  assert.equal(await row.first().locator('.pill.bad').innerText(), 'failed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a listing its probe never reached is in no category (other): a category comes only from what a probe saw', async () => {
  const failed = await getJson(world.app, `/api/listings/status?id=${world.xssId}`);
  assert.equal(failed.body.probe.handshake, 'failed');
  assert.deepEqual([failed.body.category_id, failed.body.category_label], ['other', 'Other']);
  const listing = await world.app.http.inject({ method: 'GET', url: `/l/${world.xssId}` });
  assert.match(listing.body, /<dt>Category<\/dt><dd>Other<\/dd>/);
});

test('a listing that fails after the list form says so with a link to its page', async () => {
  const { page, context } = await world.open('/list');
  await page.fill('input[name=url]', `http://127.0.0.1:${await freePort()}/mcp`);
  await page.click('#list-form button[type=submit]');
  const status = page.locator('#list-status.bad');
  await status.waitFor({ timeout: 30_000 });
  assert.match(await status.innerText(), /^Not Live: failed \(unreachable\)\. Fix it and list again; what the probe found is on its listing page\.$/);
  const link = status.locator('a');
  const href = (await link.getAttribute('href'))!;
  assert.match(href, /^\/l\/lst_[0-9a-z]{20}$/);
  assert.equal(await link.innerText(), 'its listing page');
  await Promise.all([page.waitForURL(`${world.base}${href}`), link.click()]);
  assert.match(await page.locator('h1').innerText(), /failed/);
  await context.close();
});

test("at 1280 px a listing page's boxes are spaced: the Card box and the Score breakdown box under it do not touch", async () => {
  const { page, context } = await world.open(`/l/${liveId}`, { width: WIDTHS.desktop });
  const card = (await page.locator('section[aria-labelledby="card-h"]').boundingBox())!;
  const score = (await page.locator('section[aria-labelledby="score-h"]').boundingBox())!;
  assert.ok(score.x < card.x + card.width, 'one above the other');
  assert.ok(score.y - (card.y + card.height) >= 12, `gap ${score.y - (card.y + card.height)}px`);
  await page.screenshot({ path: path.join(SHOTS, `${engine}-listing-spaced-1280.png`), fullPage: true });
  await context.close();
});

test("a listing's page in words a person reads: no bare talk mode, traces said in words", async () => {
  const { page, context, errors } = await world.open(`/l/${liveId}`, { width: WIDTHS.desktop });
  const stats = (await page.locator('.stats').innerText()).replace(/\s+/g, ' ');
  // An unclaimed listing has no check-in to make: its talk mode says nothing to a person.
  assert.doesNotMatch(stats, /Talk|present|—\s*$/, stats);
  const traces = (await page.locator('section[aria-labelledby="traces-h"]').innerText()).replace(/\s+/g, ' ');
  assert.doesNotMatch(traces, /\bjoined\b|\battraction\b|\d\.\d\d\b/, traces);
  assert.match(traces, /Submitted the mark every new submission gets; halves every 14 days strength \d+/);
  assert.match(traces, /Drew interest clean probes, endorsements and calls that went well; halves every 7 days strength [\d.]+/);
  await page.screenshot({ path: path.join(SHOTS, `${engine}-listing-words-1280.png`), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('at 390 px the probe chart\'s labels are readable: 12 px at least, inside their box, none over another', async () => {
  for (const id of [liveId, world.xssId]) {
    const { page, context } = await world.open(`/l/${id}`, { width: WIDTHS.phone });
    const labels = await page.locator('section[aria-labelledby="hist-h"] svg.chart').evaluate((svg) => {
      const scale = svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width;
      const panel = svg.closest('section')!.getBoundingClientRect();
      return [...svg.querySelectorAll('text.axis')]
        .filter((t) => getComputedStyle(t).display !== 'none')
        .map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent, px: Number.parseFloat(getComputedStyle(t).fontSize) * scale, left: r.left, right: r.right, top: r.top, inside: r.left >= panel.left && r.right <= panel.right };
        });
    });
    assert.ok(labels.length >= 6, JSON.stringify(labels));
    for (const l of labels) {
      assert.ok(l.px >= 12, `${l.text} is drawn at ${l.px.toFixed(1)} px`);
      assert.ok(l.inside, `${l.text} runs out of its box`);
    }
    const xLabels = labels.filter((l) => !/^\d+$/.test(l.text ?? '')).sort((a, b) => a.left - b.left);
    for (let i = 1; i < xLabels.length; i++) assert.ok(xLabels[i]!.left >= xLabels[i - 1]!.right, `${xLabels[i - 1]!.text} overlaps ${xLabels[i]!.text}`);
    await page.locator('section[aria-labelledby="hist-h"]').screenshot({ path: path.join(SHOTS, `${engine}-listing-chart-390-${id === liveId ? 'live' : 'failed'}.png`) });
    await context.close();
  }
  // The growth charts too: many days, and the middle date left out where it would not fit.
  const { page, context } = await world.open('/grow', { width: WIDTHS.phone });
  const sizes = await page.locator('svg.chart text.axis').evaluateAll((texts) =>
    texts.filter((t) => getComputedStyle(t).display !== 'none').map((t) => {
      const svg = (t as SVGTextElement).ownerSVGElement!;
      return Number.parseFloat(getComputedStyle(t).fontSize) * (svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
    }),
  );
  assert.ok(sizes.length > 20 && sizes.every((px) => px >= 12), sizes.map((px) => px.toFixed(1)).join(' '));
  await context.close();
});

test('at 390 px the listing id stays whole on one line', async () => {
  for (const id of [liveId, world.xssId]) {
    const { page, context } = await world.open(`/l/${id}`, { width: WIDTHS.phone });
    const idCode = page.locator('section[aria-labelledby="card-h"] dt:text-is("Listing id") + dd code');
    assert.equal(await idCode.innerText(), id);
    assert.equal(await idCode.evaluate((c) => c.getClientRects().length), 1, 'the id is on one line');
    await page.locator('section[aria-labelledby="card-h"]').screenshot({ path: path.join(SHOTS, `${engine}-listing-card-390-${id === liveId ? 'live' : 'failed'}.png`) });
    await context.close();
  }
});

/** A form page fetched over real HTTP: the browser's form cookie and the form token it holds. */
async function formOf(pathname: string): Promise<{ cookie: string; token: string }> {
  const res = await fetch(`${world.base}${pathname}`);
  assert.equal(res.status, 200);
  const cookie = res.headers.get('set-cookie') ?? '';
  assert.match(cookie, /^rc_form=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/);
  const token = /name="form_token" value="([A-Za-z0-9_-]{43})"/.exec(await res.text())?.[1];
  assert.ok(token, `${pathname} has a form token`);
  return { cookie: cookie.split(';')[0]!, token };
}

const postForm = (pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${world.base}${pathname}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });

test("an unclaimed Live listing's page claims it: the proof, where to put it, one button, the owner token shown once; the claim id never in a URL", async () => {
  // A server of the test's own that serves its claim file on loopback, as an owner's site would.
  const spots = newClaimSpots();
  const peer = await startModernMcp({ claims: spots });
  try {
    const published = await postJson(world.app, '/api/publish', { url: peer.url });
    const id = published.body.id as string;
    await waitForLane(world.app, id, ['active']);
    const { page, context, errors } = await world.open(`/l/${id}`);
    const urls: string[] = [];
    const bodies: string[] = [];
    page.on('request', (r) => {
      urls.push(r.url(), r.headers().referer ?? '');
      if (r.method() === 'POST') bodies.push(r.postData() ?? '');
    });
    assert.equal(await page.locator('section[aria-labelledby="card-h"] a[href="#claim-h"]').innerText(), 'claim it');
    const offer = page.locator('section[aria-labelledby="claim-h"]');
    assert.equal(await offer.locator('form').getAttribute('action'), `/l/${id}/claim`);
    assert.equal(await offer.locator('input[type=hidden][name=form_token]').count(), 1);
    await assertAccessible(page, `/l/${id} with the claim offer`);

    // Starting the claim is claim_listing: a claim of this listing, made by this browser's address.
    await tabTo(page, 'section[aria-labelledby="claim-h"] button');
    const [started] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(started?.status(), 200);
    assert.equal(started?.headers()['cache-control'], 'no-store');
    assert.equal(new URL(page.url()).pathname, `/l/${id}/claim`);
    const claimId = (await page.locator('input[type=hidden][name=claim_id]').getAttribute('value'))!;
    assert.match(claimId, /^clm_[A-Za-z0-9_-]{32}$/);
    const proof = (await page.locator('section[aria-labelledby="proof-h"] pre').innerText()).trim();
    assert.match(proof, /^rollcall-claim=[A-Za-z0-9_-]{43}$/);
    const claims = await world.app.sql.selectFrom('listing_claims').select(['listing_id', 'proof']).where('proof', '=', proof).execute();
    assert.deepEqual(claims, [{ listing_id: id, proof }]);
    const where = await page.locator('section[aria-labelledby="where-h"] li h3').allInnerTexts();
    assert.deepEqual(where.map((w) => w.replace(/\s+/g, ' ')), ["A file on your site takes a founding seat", "Your server's initialize answer no founding seat"]);
    assert.match(await page.locator('section[aria-labelledby="where-h"]').innerText(), new RegExp(`${new URL(peer.url).origin.replace(/[.]/g, '\\.')}/\\.well-known/rollcall-claim\\.txt`));
    assert.equal(await page.locator('section[aria-labelledby="check-h"] button').count(), 1, 'one button checks it');
    for (const width of [WIDTHS.phone, WIDTHS.desktop]) {
      await page.setViewportSize({ width, height: 860 });
      await assertAccessible(page, `the claim page at ${width}px`);
      await page.screenshot({ path: path.join(SHOTS, `${engine}-claim-${width}.png`), fullPage: true });
    }

    // Checked before the proof is in place: the claim page again, saying what was read.
    const [early] = await Promise.all([page.waitForNavigation(), page.click('section[aria-labelledby="check-h"] button')]);
    assert.equal(early?.status(), 422);
    assert.equal(early?.headers()['cache-control'], 'no-store');
    const alert = (await page.locator('[role=alert]').innerText()).replace(/\s+/g, ' ');
    assert.match(alert, /Not yet: the proof was not found in the places Rollcall read \(below\)\. Put it in one of them, then check again in \d+ seconds/);
    assert.match(alert, /A file on your site: .*rollcall-claim\.txt HTTP 404.* could not read/);
    assert.equal(await page.locator('input[type=hidden][name=claim_id]').getAttribute('value'), claimId);
    for (const width of [WIDTHS.phone, WIDTHS.desktop]) {
      await page.setViewportSize({ width, height: 860 });
      await assertAccessible(page, `the claim page after a check that found nothing at ${width}px`);
      await page.screenshot({ path: path.join(SHOTS, `${engine}-claim-not-yet-${width}.png`), fullPage: true });
    }

    // The proof in place (the owner's file), and the place's shared read window past: found.
    spots.file = `${proof}\n`;
    (world.app.clock as ManualClock).advance(31_000);
    const [done] = await Promise.all([page.waitForNavigation(), page.click('section[aria-labelledby="check-h"] button')]);
    assert.equal(done?.status(), 200);
    assert.equal(done?.headers()['cache-control'], 'no-store');
    assert.match(await page.locator('h1').innerText(), /^You own weather-now$/);
    const token = (await page.locator('section[aria-labelledby="token-h"] pre').innerText()).trim();
    assert.match(token, /^rco_[A-Za-z0-9_-]{43}$/);
    const said = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    assert.match(said, /Shown once\. Rollcall keeps only a hash of it and this page is not stored: copy it now\./);
    assert.match(said, /Store it as a secret: in a password manager, or your deployment's secret store/);
    assert.match(said, /Send it as Authorization: Bearer <owner token> on the REST API and on \/api\/mcp .* names it owner_token/);
    for (const width of [WIDTHS.phone, WIDTHS.desktop]) {
      await page.setViewportSize({ width, height: 860 });
      await assertAccessible(page, `the owner token page at ${width}px`);
      await page.screenshot({ path: path.join(SHOTS, `${engine}-claim-token-${width}.png`), fullPage: true });
    }
    // The claim id went in the bodies of the POSTs only: never a URL, never a Referer.
    assert.ok(urls.length > 0);
    assert.deepEqual(urls.filter((u) => u.includes(claimId)), []);
    assert.equal(bodies.filter((b) => b.includes(`claim_id=${claimId}`)).length, 2, 'both checks sent it in their body');
    assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    await context.close();

    // The token acts for the listing (update_listing over REST), and the listing shows as claimed.
    const patched = await fetch(`${world.base}/api/listings/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ description: 'Weather, claimed in a browser.' }) });
    assert.equal(patched.status, 200, await patched.clone().text());
    assert.deepEqual(await patched.json().then((b) => [b.claimed, b.description]), [true, 'Weather, claimed in a browser.']);
    const claimed = await world.open(`/l/${id}`);
    assert.equal(await claimed.page.locator('section[aria-labelledby="claim-h"]').count(), 0, 'no claim offer on a claimed listing');
    await claimed.context.close();
  } finally {
    await peer.close();
  }
});

test('a claim form with a missing, forged or cross-site form token is refused with a clear error, and starts nothing', async () => {
  const before = (await world.app.sql.selectFrom('listing_claims').select('proof').execute()).length;
  const { cookie, token } = await formOf(`/l/${liveId}`);
  const refusals: [string, Response][] = [
    ['no token', await postForm(`/l/${liveId}/claim`, {}, { cookie })],
    ['no cookie', await postForm(`/l/${liveId}/claim`, { form_token: token })],
    ['a forged token', await postForm(`/l/${liveId}/claim`, { form_token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` }, { cookie })],
    ['a malformed token', await postForm(`/l/${liveId}/claim`, { form_token: `${token}<` }, { cookie })],
    ['another site', await postForm(`/l/${liveId}/claim`, { form_token: token }, { cookie, origin: 'https://evil.example' })],
    ['another site (fetch metadata)', await postForm(`/l/${liveId}/claim/verify`, { form_token: token, claim_id: 'clm_x' }, { cookie, 'sec-fetch-site': 'cross-site' })],
    ['the list form without its token', await postForm('/list', { url: 'https://example.com/mcp' }, { cookie })],
  ];
  for (const [why, res] of refusals) {
    assert.equal(res.status, 403, why);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8', why);
    const page = await res.text();
    assert.match(page, /this form was not accepted: [^.]+\. Reload the page and send the form again from there\./, why);
  }
  assert.equal((await world.app.sql.selectFrom('listing_claims').select('proof').execute()).length, before, 'no claim was started');
  // The claim's addresses opened directly lead to the listing's offer.
  const typed = await fetch(`${world.base}/l/${liveId}/claim`, { redirect: 'manual' });
  assert.deepEqual([typed.status, typed.headers.get('location')], [303, `/l/${liveId}#claim-h`]);
  // The same form with its token and cookie is accepted: the claim page.
  const ok = await postForm(`/l/${liveId}/claim`, { form_token: token }, { cookie });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('cache-control'), 'no-store');
  assert.match(await ok.text(), /name="claim_id" value="clm_/);
});

test('the grow page names the first day of its 90-day window', async () => {
  // 90 days, today included: today and the 89 before it (registry/page-reads.ts growthSeries).
  const today = world.now().slice(0, 10);
  const first = new Date(Date.parse(`${today}T00:00:00Z`) - 89 * DAY_MS).toISOString().slice(0, 10);
  const { page, context } = await world.open('/grow');
  const lede = await page.locator('.page-head .lede').innerText();
  assert.match(lede, /over the last 90 days, today included \(since (\d{4}-\d\d-\d\d)\)/);
  assert.ok(lede.includes(`(since ${first})`), lede);
  assert.ok(!lede.includes(`since ${today}`), lede);
  assert.equal(await page.locator('.page-head .lede time').getAttribute('datetime'), first);
  await context.close();
});

test('the keyboard reaches the main actions: skip link, navigation, forms and their buttons', async () => {
  const { page, context } = await world.open('/');
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
  await page.goto(`${world.base}/`);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => location.hash), '#main');
  await context.close();

  // The list form from the keyboard alone: Tab to the URL field, type, Enter sends it.
  const list = await world.open('/list', { width: WIDTHS.phone });
  await tabTo(list.page, 'input[name=url]');
  await list.page.keyboard.type(world.everything.url);
  await list.page.keyboard.press('Enter');
  await list.page.locator('#list-live').waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal((await activeElement(list.page)).id, 'listing-link');
  assert.equal(await focusRingProblem(list.page), '');
  await list.context.close();
});

test('a failed list submit keeps the keyboard focus where it was and says what went wrong', async () => {
  const { page, context, errors } = await world.open('/list', { width: WIDTHS.phone });
  await tabTo(page, 'input[name=url]');
  // A valid URL to the browser, refused by publish (http and https only).
  await page.keyboard.type('ftp://example.com/x');
  await tabTo(page, '#list-form button[type=submit]');
  const [answer] = await Promise.all([page.waitForResponse((r) => r.url() === `${world.base}/api/publish`), page.keyboard.press('Space')]);
  assert.equal(answer.status(), 400);
  await page.locator('#list-status.bad').waitFor();
  assert.match(await page.locator('#list-status').innerText(), /http/);
  assert.deepEqual(await activeElement(page), { tag: 'button', id: '', text: 'List it' });
  assert.equal(await focusRingProblem(page), '');
  // Enter in the field sends it again, and the focus stays in the field.
  await page.focus('input[name=url]');
  await Promise.all([page.waitForResponse((r) => r.url() === `${world.base}/api/publish`), page.keyboard.press('Enter')]);
  assert.equal((await activeElement(page)).tag, 'input');
  await assertAccessible(page, '/list after a failed submit');
  // The browser reports the 400 answer as a failed load; nothing else may show.
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  await context.close();
});

test('a listing that waits for its probe never reloads itself: a Refresh status link, and the change of lane said in a live region', async () => {
  const res = await world.app.http.inject({ method: 'GET', url: `/l/${world.pendingId}` });
  assert.doesNotMatch(res.body, /http-equiv/i);
  assert.match(res.body, new RegExp(`<a class="btn" id="wait-refresh" href="/l/${world.pendingId}">Refresh status</a>`));

  const { page, context, errors } = await world.open(`/l/${world.pendingId}`);
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
  await setListingState(world.app, world.pendingId, { lane: 'failed', lane_reason: 'probe_timeout' }, world.now());
  await page.waitForFunction(() => /not Live \(failed: probe_timeout\)/.test(document.getElementById('wait-msg')?.textContent ?? ''), undefined, { timeout: 15_000 });
  assert.ok(polls.length >= 1 && polls.every((u) => u.endsWith(`/api/listings/status?id=${world.pendingId}`)), polls.join(' '));
  assert.equal(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument), true, 'the page did not reload');
  // Reloading is the person's choice: the link shows the listing as it is now.
  await tabTo(page, '#wait-refresh');
  await Promise.all([page.waitForURL(`${world.base}/l/${world.pendingId}`), page.keyboard.press('Enter')]);
  await page.locator('h1 .pill.bad').waitFor();
  assert.equal(await page.locator('#wait-msg').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
  await setListingState(world.app, world.pendingId, { lane: 'queued', lane_reason: null }, world.now());
});

test('a listing named with markup is shown as text, never run', async () => {
  for (const pathname of [`/l/${world.xssId}`, '/', '/talk']) {
    const { page, context, errors } = await world.open(pathname);
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, pathname);
    assert.equal(await page.locator('img[src="x"]').count(), 0, pathname);
    assert.equal(await page.locator('script').count(), 1, `${pathname}: only site.js`);
    assert.ok((await page.locator('body').innerText()).includes('<script>window.__xss=1</script>'), `${pathname} shows the name as text`);
    assert.deepEqual(errors, [], pathname);
    await context.close();
  }
  const res = await world.app.http.inject({ method: 'GET', url: `/l/${world.xssId}` });
  assert.ok(!res.body.includes('<script>window'));
  assert.ok(res.body.includes('&lt;script&gt;window.__xss=1&lt;/script&gt;'));
});

test('without JS: the list form posts and lands on the listing page, the try search answers, charts are there, a pending listing offers its link', async () => {
  const { page, context } = await world.open('/list', { js: false });
  await page.fill('input[name=url]', world.everything.url);
  await Promise.all([page.waitForURL(/\/l\//), page.click('#list-form button[type=submit]')]);
  assert.equal(new URL(page.url()).pathname, `/l/${liveId}`);
  assert.match(await page.locator('h1').innerText(), /Everything Reference Server/);
  await page.goto(`${world.base}/try?q=echo`);
  assert.ok((await page.locator('#search-out li', { hasText: 'Everything Reference Server' }).count()) >= 1);
  await page.goto(`${world.base}/grow`);
  assert.equal(await page.locator('svg.chart').count(), 7);
  await page.goto(`${world.base}/l/${world.pendingId}`);
  await Promise.all([page.waitForURL(`${world.base}/l/${world.pendingId}`), page.click('#wait-refresh')]);
  assert.match(await page.locator('#wait-msg').innerText(), /does not reload itself/);
  await context.close();
});

test('a listing that took its demo is offered the next step, not the demo again: the claim while unclaimed, then the feedback; its page and the list form', async () => {
  await waitForLane(world.app, liveId, ['active']);
  const demo = await postJson(world.app, '/api/products/demo', { listing_id: liveId });
  assert.equal(demo.status, 200, JSON.stringify(demo.body));
  const unclaimed = await world.open(`/l/${liveId}`);
  // The claim is the next step, said once: the page's claim form, with the API call folded beside it.
  assert.equal(await unclaimed.page.locator('#next-h').count(), 0);
  assert.equal(await unclaimed.page.locator('#claim-h').count(), 1);
  assert.match(await unclaimed.page.locator('section[aria-labelledby="claim-h"] pre').textContent() ?? '', /\/api\/listings\/claim/);
  assert.equal(await unclaimed.page.locator('a[href^="/api/products/demo"]').count(), 0, 'the demo was taken');
  await assertAccessible(unclaimed.page, `/l/${liveId} unclaimed after its demo`);
  await unclaimed.context.close();
  // Its owner claims it (the proof in place, as the claim tests do it): the feedback is next.
  await ownListing(world.app, liveId);
  const status = await getJson(world.app, `/api/listings/status?id=${liveId}`);
  assert.equal(status.body.demoed, true);
  assert.equal(status.body.next_step.tool, 'leave_feedback');

  const listing = await world.open(`/l/${liveId}`);
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

  const list = await world.open('/list');
  await list.page.fill('input[name=url]', world.everything.url);
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
  const form = await world.app.http.inject({ method: 'POST', url: '/api/publish', payload: 'url=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(form.statusCode, 415);
  const { cookie, token } = await formOf('/list');
  const bad = await postForm('/list', { url: 'ftp://x', form_token: token }, { cookie });
  assert.equal(bad.status, 400);
  assert.match(bad.headers.get('content-type') ?? '', /text\/html/);
  const missing = await world.app.http.inject({ method: 'GET', url: '/l/lst_nope' });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.body, /Not found/);
  const home = await world.app.http.inject({ method: 'GET', url: '/' });
  const css = /href="(\/assets\/site\.css\?v=[^"]+)"/.exec(home.body)![1]!;
  const asset = await world.app.http.inject({ method: 'GET', url: css });
  assert.equal(asset.statusCode, 200);
  assert.match(asset.headers['cache-control'] as string, /max-age=31536000, immutable/);
  const again = await world.app.http.inject({ method: 'GET', url: css, headers: { 'if-none-match': asset.headers.etag as string } });
  assert.equal(again.statusCode, 304);
  const openapi = await getJson(world.app, '/openapi.json');
  assert.ok(openapi.body.paths['/badge/{name}'].get);
});
