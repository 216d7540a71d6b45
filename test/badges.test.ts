// The badges (SPEC.md 4.1 /badge/{mcp, agent, listed, clean, verified, live}) through the real HTTP
// door: valid SVG with the right texts, per listing values that follow the listing's state, the
// registry-wide counts, unknown ids, a name with markup kept as text, and the caching headers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { insertBindingIfAbsent } from '../src/identity/store.ts';
import { generateEd25519, thumbprint } from '../src/identity/keys.ts';
import { BADGE_NAMES, badgeSnippet } from '../src/registry/badges.ts';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

const NOW = '2026-11-01T12:00:00.000Z';

/** A small well-formedness check: one <svg> root, every tag closed in order, no raw markup in text. */
function assertSvg(body: string): void {
  assert.ok(body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), body.slice(0, 80));
  assert.ok(body.endsWith('</svg>'));
  const stack: string[] = [];
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g)) {
    const [, closing, name, , selfClosing] = m;
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes the open element`);
    else if (!selfClosing) stack.push(name!);
  }
  assert.deepEqual(stack, [], 'every element is closed');
  // Whatever is left after removing the tags is text: it must hold no markup.
  assert.doesNotMatch(body.replace(/<\/?[a-zA-Z][\w:-]*(?:\s+[\w:-]+="[^"<]*")*\s*\/?>/g, ''), /[<>]/);
}

/** The badge's visible text: its <title> is "label: message". */
const titleOf = (svg: string) => /<title>([^<]*)<\/title>/.exec(svg)?.[1];

async function badge(path: string, headers: Record<string, string> = {}) {
  const res = await app.http.inject({ method: 'GET', url: path, headers });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}

async function publish(url: string, name?: string): Promise<string> {
  const res = await postJson(app, '/api/publish', { url, ...(name ? { name } : {}) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

test('every registry-wide badge is an SVG with its counts, and the counts follow the listings', async () => {
  for (const name of BADGE_NAMES) {
    const res = await badge(`/badge/${name}`);
    assert.equal(res.status, 200, name);
    assert.equal(res.headers['content-type'], 'image/svg+xml; charset=utf-8');
    assertSvg(res.body);
  }
  const before = {
    mcp: titleOf((await badge('/badge/mcp')).body),
    agent: titleOf((await badge('/badge/agent')).body),
    live: titleOf((await badge('/badge/live')).body),
  };
  assert.match(before.mcp!, /^MCP servers: \d+ live$/);
  assert.match(before.agent!, /^agents: \d+ live$/);
  assert.equal(titleOf((await badge('/badge/listed')).body), 'listed on: Rollcall');

  const count = (title: string | undefined) => Number(/(\d+)/.exec(title ?? '')?.[1]);
  const mcp = await publish('https://wide-mcp.example.org/mcp');
  const agent = await publish('https://wide-agent.example.org/.well-known/agent-card.json');
  await setListingState(app, mcp, { lane: 'active', checks_clean: 1, probe_ok: 1, probe_score: 70, probed_at: NOW }, NOW);
  await setListingState(app, agent, { kind: 'agent', lane: 'active', checks_clean: 1, probe_ok: 1, probe_score: 60, probed_at: NOW, founding_verified: 1 }, NOW);
  assert.equal(count(titleOf((await badge('/badge/mcp')).body)), count(before.mcp) + 1);
  assert.equal(count(titleOf((await badge('/badge/agent')).body)), count(before.agent) + 1);
  assert.equal(count(titleOf((await badge('/badge/live')).body)), count(before.live) + 2);
  assert.match(titleOf((await badge('/badge/clean')).body)!, /^checks clean: [1-9]\d* of [1-9]\d* probed$/);
  assert.match(titleOf((await badge('/badge/verified')).body)!, /^verified: [1-9]\d* founding · \d+ signed$/);
});

test("a listing's badges follow its state: lane, checks, score, founding seat and bound key", async () => {
  const id = await publish('https://one-badge.example.org/mcp', 'Badge Server');
  const title = async (name: string) => {
    const res = await badge(`/badge/${name}?id=${id}`);
    assert.equal(res.status, 200, `${name}: ${res.body}`);
    assertSvg(res.body);
    return titleOf(res.body);
  };
  assert.equal(await title('listed'), 'listed on Rollcall: queued');
  assert.equal(await title('clean'), 'checks: pending');
  assert.equal(await title('live'), 'Rollcall live: no · queued');
  assert.equal(await title('verified'), 'verified: no');
  assert.equal(await title('mcp'), 'Badge Server: MCP server · queued');

  await setListingState(app, id, { lane: 'failed', lane_reason: 'checks_failed', checks_clean: 0, probe_ok: 1, probe_score: 40, probed_at: NOW }, NOW);
  assert.equal(await title('listed'), 'listed on Rollcall: failed');
  assert.equal(await title('clean'), 'checks: not clean');
  assert.equal(await title('live'), 'Rollcall live: no · failed');

  await setListingState(app, id, { lane: 'active', lane_reason: null, checks_clean: 1, probe_score: 83 }, NOW);
  assert.equal(await title('listed'), 'listed on Rollcall: live');
  assert.equal(await title('clean'), 'checks: clean');
  assert.equal(await title('live'), 'Rollcall live: yes · score 83');
  assert.equal(await title('mcp'), 'Badge Server: MCP server · live');

  await setListingState(app, id, { founding_verified: 1 }, NOW);
  assert.equal(await title('verified'), 'verified: founding');
  const { publicJwk } = generateEd25519();
  assert.ok(await insertBindingIfAbsent(app.services.db.kysely, id, publicJwk, await thumbprint(publicJwk), new Date(NOW)));
  assert.equal(await title('verified'), 'verified: founding · signed key');

  await setListingState(app, id, { lane: 'dormant' }, NOW);
  assert.equal(await title('live'), 'Rollcall live: no · dormant');

  // The agent badge does not apply to an MCP server: the grey "not found" image, status 404.
  const wrongKind = await badge(`/badge/agent?id=${id}`);
  assert.equal(wrongKind.status, 404);
  assertSvg(wrongKind.body);
  assert.equal(titleOf(wrongKind.body), 'agent: not found');
});

test('an unknown id or badge is a grey "not found" SVG with status 404; bad parameters are a 400', async () => {
  const unknown = await badge('/badge/live?id=lst_nope');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers['content-type'], 'image/svg+xml; charset=utf-8');
  assertSvg(unknown.body);
  assert.equal(titleOf(unknown.body), 'Rollcall: not found');
  assert.match(unknown.body, /fill="#939393"/, 'lightgrey');

  const noSuch = await badge('/badge/famous');
  assert.equal(noSuch.status, 404);
  assertSvg(noSuch.body);
  assert.equal(titleOf(noSuch.body), 'Rollcall: no such badge');

  const longId = await getJson(app, `/badge/live?id=${'x'.repeat(65)}`);
  assert.equal(longId.status, 400);
  assert.equal(longId.body.error.code, 'invalid_input');
  assert.equal(longId.body.error.field, 'id');
  const badStyle = await getJson(app, '/badge/live?style=neon');
  assert.equal(badStyle.status, 400);
  assert.equal(badStyle.body.error.field, 'style');
});

test('a listing name with markup is drawn as text, never as markup', async () => {
  const id = await publish('https://xss-badge.example.org/mcp');
  await setListingState(app, id, { name: '<script>alert(1)</script><img src=x onerror=alert(2)>' }, NOW);
  const res = await badge(`/badge/mcp?id=${id}`);
  assert.equal(res.status, 200);
  assertSvg(res.body);
  assert.doesNotMatch(res.body, /<script|<img/i);
  assert.match(res.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.equal(res.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
});

test('headers: SVG type, short public caching, CORS open, an ETag that answers 304 until the listing changes', async () => {
  const id = await publish('https://cache-badge.example.org/mcp');
  const first = await badge(`/badge/listed.svg?id=${id}`);
  assert.equal(first.status, 200);
  assert.equal(first.headers['content-type'], 'image/svg+xml; charset=utf-8');
  assert.equal(first.headers['cache-control'], 'public, max-age=60');
  assert.equal(first.headers['access-control-allow-origin'], '*');
  const etag = first.headers.etag as string;
  assert.match(etag, /^"[\w-]+"$/);

  const again = await badge(`/badge/listed.svg?id=${id}`, { 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.body, '');
  assert.equal(again.headers.etag, etag);

  await setListingState(app, id, { lane: 'active' }, NOW);
  const changed = await badge(`/badge/listed.svg?id=${id}`, { 'if-none-match': etag });
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.etag, etag);
  assert.equal(titleOf(changed.body), 'listed on Rollcall: live');

  const styled = await badge(`/badge/listed?id=${id}&style=for-the-badge`);
  assert.equal(styled.status, 200);
  assertSvg(styled.body);
  assert.notEqual(styled.headers.etag, changed.headers.etag);
  assert.match(styled.body, /LISTED ON ROLLCALL/);

  const head = await app.http.inject({ method: 'HEAD', url: `/badge/listed?id=${id}` });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers['content-type'], 'image/svg+xml; charset=utf-8');
});

test("check_status carries the listing's Live badge URLs and ready Markdown; every badge it names is served", async () => {
  const id = await publish('https://snippet-badge.example.org/mcp');
  const status = await getJson(app, `/api/listings/status?id=${id}`);
  assert.equal(status.status, 200);
  const base = app.config.publicBaseUrl;
  const b = status.body.badges;
  const { image, link, markdown } = badgeSnippet(base, id, 'live');
  assert.deepEqual(b, { image, link, markdown });
  assert.equal(b.markdown, `[![Live on Rollcall](${base}/badge/live?id=${id})](${base}/l/${id})`);
  for (const name of ['mcp', 'listed', 'clean', 'verified', 'live']) {
    const res = await badge(`/badge/${name}?id=${id}`);
    assert.equal(res.status, 200, name);
    assertSvg(res.body);
  }
});
