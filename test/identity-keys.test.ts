// Signed identity, the keys and documents: one Ed25519 key per deployment, shared by
// every instance, rotated with an overlap; the JWKS, the Web Bot Auth directory (its response
// signed per RFC 9421), the signature agent card and the MCP registry record, over real HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify as edVerify } from 'node:crypto';
import canonicalize from 'canonicalize';
import { base64url, calculateJwkThumbprint, decodeProtectedHeader, flattenedVerify } from 'jose';
import { engine, startApp, type TestApp } from './helpers/app.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';
import { ensureSigningKey } from '../src/identity/store.ts';
import { KEY_OVERLAP_MS, KEY_PUBLISH_LEAD_MS } from '../src/identity/store.ts';
import { KEY_CACHE_MS } from '../src/identity/runtime.ts';
import { mcpDnsTxt } from '../src/identity/documents.ts';
import { verifyAgentCard } from '../src/identity/card-signing.ts';
import { probeUserAgent } from '../src/probe/factory.ts';

const PATHS = ['/.well-known/jwks.json', '/.well-known/http-message-signatures-directory', '/.well-known/signature-agent-card.json', '/.well-known/mcp-registry-auth'];

async function withApp(fn: (app: TestApp) => Promise<void>, options: Parameters<typeof startApp>[0] = {}) {
  const app = await startApp(options);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

/** The private halves as stored, to prove they appear in no response. */
async function privateParts(app: TestApp): Promise<string[]> {
  const rows = await app.sql.selectFrom('signing_keys').select('private_jwk').execute();
  return rows.map((r) => (JSON.parse(r.private_jwk) as { d: string }).d);
}

interface ParsedSignature {
  label: string;
  params: string;
  components: string[];
  keyid: string;
  tag: string;
  created: number;
  expires: number;
  value: Buffer;
}

/** Splits a Signature-Input / Signature pair (the simple dictionaries a directory response sends). */
function parseSignatures(input: string, signature: string): ParsedSignature[] {
  const values = new Map(
    signature.split(/,\s*(?=sig\d+=)/).map((m) => {
      const [, label, b64] = /^(sig\d+)=:([A-Za-z0-9+/=]+):$/.exec(m.trim())!;
      return [label!, Buffer.from(b64!, 'base64')];
    }),
  );
  return input.split(/,\s*(?=sig\d+=)/).map((m) => {
    const [, label, params] = /^(sig\d+)=(.*)$/.exec(m.trim())!;
    const inner = /^\(([^)]*)\)/.exec(params!)![1]!;
    const param = (name: string) => new RegExp(`;${name}=("([^"]*)"|\\d+)`).exec(params!)!;
    return {
      label: label!,
      params: params!,
      components: inner.split(' '),
      keyid: param('keyid')[2]!,
      tag: param('tag')[2]!,
      created: Number(param('created')[1]),
      expires: Number(param('expires')[1]),
      value: values.get(label!)!,
    };
  });
}

/** Verifies one response signature the way a Web Bot Auth client would: rebuild the base, check with the published key. */
function verifiesWith(sig: ParsedSignature, authority: string, digest: string, x: string): boolean {
  const base = `"@authority";req: ${authority}\n"content-digest": ${digest}\n"@signature-params": ${sig.params}`;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  return edVerify(null, Buffer.from(base), key, sig.value);
}

test(`the JWKS over real HTTP: public members only, kid = RFC 7638 thumbprint, CORS, ETag and 304 (${engine})`, async () => {
  await withApp(async (app) => {
    const base = await app.listen();
    const res = await fetch(`${base}/.well-known/jwks.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
    const text = await res.text();
    const etag = res.headers.get('etag')!;
    assert.equal(etag, `"${createHash('sha256').update(text).digest('base64url')}"`);
    const { keys } = JSON.parse(text) as { keys: Record<string, string>[] };
    assert.equal(keys.length, 1);
    const key = keys[0]!;
    assert.deepEqual(Object.keys(key).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    assert.deepEqual({ kty: key.kty, crv: key.crv, alg: key.alg, use: key.use }, { kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    assert.equal(Buffer.from(key.x!, 'base64url').length, 32);
    assert.equal(key.kid, await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: key.x! }, 'sha256'));

    const again = await fetch(`${base}/.well-known/jwks.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    assert.equal(again.headers.get('etag'), etag);
    const other = await fetch(`${base}/.well-known/jwks.json`, { headers: { 'if-none-match': '"something-else"' } });
    assert.equal(other.status, 200);
    const head = await fetch(`${base}/.well-known/jwks.json`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), etag);
  });
});

test(`no private key material in any identity document, header or runtime dump (${engine})`, async () => {
  await withApp(async (app) => {
    const base = await app.listen();
    const bodies: string[] = [];
    for (const path of PATHS) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=300', path);
      assert.ok(res.headers.get('etag'), path);
      bodies.push(await res.text(), JSON.stringify([...res.headers]));
    }
    const secrets = await privateParts(app);
    assert.equal(secrets.length, 1);
    for (const d of secrets) {
      for (const b of bodies) assert.ok(!b.includes(d), 'a private key member leaked');
      assert.ok(!JSON.stringify(app.services.identity).includes(d));
      assert.ok(!JSON.stringify(await app.services.identity.jwks()).includes(d));
    }
    assert.ok(!bodies.some((b) => /"d"\s*:/.test(b)), 'no "d" member anywhere');
  });
});

test(`two instances on one database create one key and sign with it (${engine})`, async () => {
  await withApp(async (a) => {
    const b = await startApp({ joinStore: a.store, clock: a.clock });
    try {
      // Both start at once on an empty table.
      const [ja, jb] = await Promise.all([a.services.identity.jwks(), b.services.identity.jwks()]);
      assert.deepEqual(ja, jb);
      assert.equal(ja.keys.length, 1);
      assert.equal((await a.sql.selectFrom('signing_keys').select('kid').execute()).length, 1);
      const token = await a.services.identity.sign({ sub: 'x' });
      const checked = await b.services.identity.verify(token);
      assert.equal(checked.valid, true);
      // Racing first inserts through separate connections (separate pools on PostgreSQL) still end with one row.
      const c = a.store.connect();
      try {
        await a.sql.deleteFrom('signing_keys').execute();
        const now = a.clock.now();
        await Promise.all([ensureSigningKey(a.store.db.kysely, now), ensureSigningKey(c.kysely, now), ensureSigningKey(b.store.db.kysely, now), ensureSigningKey(c.kysely, now)]);
        assert.equal((await a.sql.selectFrom('signing_keys').select('kid').execute()).length, 1);
      } finally {
        await c.close();
      }
    } finally {
      await b.close();
    }
  });
});

test(`rotation publishes the new key, switches after the lead, and drops the old one after the overlap (${engine})`, async () => {
  const clock = new ManualClock('2026-11-01T12:00:00.000Z');
  await withApp(
    async (a) => {
      const b = await startApp({ joinStore: a.store, clock });
      try {
        const jwks = async (app: TestApp) => (await app.http.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys.map((k: { kid: string }) => k.kid);
        const old = await a.services.identity.currentPublicJwk();
        assert.deepEqual(await jwks(b), [old.kid]);
        const oldToken = await a.services.identity.sign({ sub: 'before' }, { expiresInS: 30 * 24 * 3600 });

        const rotation = await a.services.identity.rotate();
        assert.notEqual(rotation.kid, old.kid);
        assert.equal(rotation.active_from, new Date(clock.now().getTime() + KEY_PUBLISH_LEAD_MS).toISOString());
        assert.deepEqual(rotation.retiring, [{ kid: old.kid, retire_at: new Date(clock.now().getTime() + KEY_PUBLISH_LEAD_MS + KEY_OVERLAP_MS).toISOString() }]);
        // Published at once on this instance, both keys; the old one still signs until the lead is over.
        assert.deepEqual(await jwks(a), [rotation.kid, old.kid]);
        assert.equal((await a.services.identity.currentPublicJwk()).kid, old.kid);
        // The other instance sees it within its cache time.
        assert.deepEqual(await jwks(b), [old.kid]);
        clock.advance(KEY_CACHE_MS);
        assert.deepEqual(await jwks(b), [rotation.kid, old.kid]);

        clock.advance(KEY_PUBLISH_LEAD_MS);
        for (const app of [a, b]) assert.equal((await app.services.identity.currentPublicJwk()).kid, rotation.kid);
        const newToken = await b.services.identity.sign({ sub: 'after' });
        assert.equal(decodeProtectedHeader(newToken).kid, rotation.kid);
        assert.equal((await a.services.identity.verify(oldToken)).valid, true, 'a token by the old key verifies during the overlap');

        // After the overlap the old key leaves the JWKS, and its tokens no longer verify.
        clock.advance(KEY_OVERLAP_MS);
        assert.deepEqual(await jwks(a), [rotation.kid]);
        assert.deepEqual(await jwks(b), [rotation.kid]);
        const late = await a.services.identity.verify(oldToken);
        assert.equal(late.valid, false);
        assert.equal(!late.valid && late.reason, 'unknown_key');
        assert.equal((await a.services.identity.verify(newToken)).valid, true);

        // Two instances rotating at once both succeed: a rotation that loses the race for the next
        // generation answers with the key the other added (when they do not overlap, each adds one).
        // The long-retired key's row, private half included, is deleted.
        const [r1, r2] = await Promise.all([a.services.identity.rotate(), b.services.identity.rotate()]);
        const rows = await a.sql.selectFrom('signing_keys').select(['kid', 'generation']).orderBy('generation').execute();
        assert.ok(!rows.some((r) => r.kid === old.kid), 'the retired key is gone from the table');
        assert.equal(rows[0]!.kid, rotation.kid);
        assert.deepEqual(new Set(rows.slice(1).map((r) => r.kid)), new Set([r1.kid, r2.kid]));
        assert.deepEqual(
          rows.map((r) => r.generation),
          rows.map((_, i) => rows[0]!.generation + i),
        );
      } finally {
        await b.close();
      }
    },
    { clock },
  );
});

test(`the key directory: Web Bot Auth media type, JWKS body, one RFC 9421 signature per key that verifies (${engine})`, async () => {
  const clock = new ManualClock('2026-11-01T12:00:00.000Z');
  await withApp(
    async (app) => {
      const base = await app.listen();
      const authority = new URL(base).host;
      const check = async (expectedKeys: number) => {
        const res = await fetch(`${base}/.well-known/http-message-signatures-directory`);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/http-message-signatures-directory+json');
        assert.equal(res.headers.get('access-control-allow-origin'), '*');
        assert.match(res.headers.get('access-control-expose-headers') ?? '', /Signature-Input/);
        const body = await res.text();
        const digest = res.headers.get('content-digest')!;
        assert.equal(digest, `sha-256=:${createHash('sha256').update(body).digest('base64')}:`);
        const { keys } = JSON.parse(body) as { keys: { kid: string; x: string; d?: string }[] };
        assert.equal(keys.length, expectedKeys);
        assert.ok(keys.every((k) => k.d === undefined));
        // The directory is its own document: no JWK `alg` (the JWKS says EdDSA for JWS; a request names "ed25519" in its signature parameters).
        for (const key of keys) assert.deepEqual(Object.keys(key).sort(), ['crv', 'kid', 'kty', 'use', 'x']);
        const sigs = parseSignatures(res.headers.get('signature-input')!, res.headers.get('signature')!);
        assert.equal(sigs.length, keys.length, 'one signature per key');
        for (const key of keys) {
          const sig = sigs.find((s) => s.keyid === key.kid);
          assert.ok(sig, `a signature by ${key.kid}`);
          assert.equal(sig.tag, 'http-message-signatures-directory');
          assert.deepEqual(sig.components, ['"@authority";req', '"content-digest"']);
          assert.equal(sig.created, Math.floor(clock.now().getTime() / 1000));
          assert.ok(sig.expires > sig.created + 300, 'valid longer than the cache keeps the response');
          assert.match(sig.params, /;alg="ed25519"/);
          assert.equal(verifiesWith(sig, authority, digest, key.x), true, 'verifies with the published key');
          assert.equal(verifiesWith(sig, 'evil.example', digest, key.x), false, 'bound to the authority');
          const otherDigest = `sha-256=:${createHash('sha256').update(`${body} `).digest('base64')}:`;
          assert.equal(verifiesWith(sig, authority, otherDigest, key.x), false, 'bound to the body');
        }
        return res;
      };
      await check(1);
      await app.services.identity.rotate();
      await check(2); // both keys sign during the overlap

      // A forged Host gets a signature over the configured public authority, never over the forged name.
      const forged = await app.http.inject({ method: 'GET', url: '/.well-known/http-message-signatures-directory', headers: { host: 'evil.example' } });
      assert.equal(forged.statusCode, 200);
      const digest = String(forged.headers['content-digest']);
      const { keys } = forged.json() as { keys: { kid: string; x: string }[] };
      for (const sig of parseSignatures(String(forged.headers['signature-input']), String(forged.headers.signature))) {
        const x = keys.find((k) => k.kid === sig.keyid)!.x;
        assert.equal(verifiesWith(sig, 'evil.example', digest, x), false);
        assert.equal(verifiesWith(sig, new URL(app.config.publicBaseUrl).host, digest, x), true);
      }
      // 304 still carries fresh signatures.
      const etag = String(forged.headers.etag);
      const revalidated = await app.http.inject({ method: 'GET', url: '/.well-known/http-message-signatures-directory', headers: { 'if-none-match': etag } });
      assert.equal(revalidated.statusCode, 304);
      assert.ok(revalidated.headers.signature);
    },
    { clock },
  );
});

test(`the signature agent card and the MCP registry record match the published key (${engine})`, async () => {
  await withApp(async (app) => {
    const base = app.config.publicBaseUrl;
    const jwk = (await app.services.identity.jwks()).keys[0]!;
    const card = await app.http.inject({ method: 'GET', url: '/.well-known/signature-agent-card.json' });
    assert.equal(card.statusCode, 200);
    assert.match(String(card.headers['content-type']), /^application\/json/);
    assert.equal(card.headers['access-control-allow-origin'], '*');
    const body = card.json();
    // draft-meunier-webbotauth-registry (0bfbdc9): OAuth client metadata names, keys as `jwks`, bot facts under `web_bot_auth`.
    assert.equal(body.client_id, `${base}/.well-known/signature-agent-card.json`);
    assert.equal(body.client_name, 'Rollcall');
    assert.equal(body.client_uri, `${base}/for-agents`);
    assert.deepEqual(body.contacts, [`${base}/for-agents`]);
    assert.deepEqual(body.jwks, { keys: [{ kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: jwk.kid, use: 'sig' }] });
    assert.equal(body.keys, undefined, 'the keys are named jwks');
    assert.equal(body.jwks_uri, undefined, 'never jwks beside jwks_uri');
    for (const flat of ['name', 'purpose', 'trigger', 'expected-user-agent', 'known-urls']) assert.equal(body[flat], undefined, `${flat} sits under web_bot_auth or is gone`);
    const bot = body.web_bot_auth;
    assert.equal(bot.trigger, 'crawler');
    assert.equal(bot['expected-user-agent'], probeUserAgent(app.config));
    assert.equal(bot['expected-user-agent'], `Rollcall-Probe/${app.config.version} (+${base}/for-agents)`);
    assert.ok(bot.purpose.length > 20);
    assert.equal(body.rollcall['http-message-signatures-directory'], `${base}/.well-known/http-message-signatures-directory`);
    assert.equal(body.rollcall.jwks_uri, `${base}/.well-known/jwks.json`);
    assert.deepEqual(body.rollcall.key_ids, [jwk.kid]);
    assert.equal(body.rollcall.signing_kid, jwk.kid);
    assert.match(String(card.headers['signature-input']), /tag="signature-agent-card"/);

    const auth = await app.http.inject({ method: 'GET', url: '/.well-known/mcp-registry-auth' });
    assert.equal(auth.statusCode, 200);
    assert.match(String(auth.headers['content-type']), /^text\/plain/);
    assert.equal(auth.headers['access-control-allow-origin'], '*');
    const match = /^v=MCPv1; k=ed25519; p=([A-Za-z0-9+/]+=*)$/.exec(auth.body);
    assert.ok(match, auth.body);
    const raw = Buffer.from(match[1]!, 'base64');
    assert.equal(raw.length, 32);
    assert.deepEqual(raw, Buffer.from(jwk.x, 'base64url'));
    const etag = String(auth.headers.etag);
    assert.equal((await app.http.inject({ method: 'GET', url: '/.well-known/mcp-registry-auth', headers: { 'if-none-match': etag } })).statusCode, 304);

    assert.equal(
      mcpDnsTxt({ publicBaseUrl: 'https://rollcall.example' }, jwk),
      `v=MCPv1; url=https://rollcall.example/api/mcp; proto=streamable-http; pk=ed25519:${raw.toString('base64')}; scope=registry; cap=tools; priority=10`,
    );
    assert.equal(await app.services.identity.mcpDnsTxt(), mcpDnsTxt(app.config, jwk));
  });
});

test(`A2A card signatures: detached JWS over the RFC 8785 card, round trip and tamper detection (${engine})`, async () => {
  await withApp(async (app) => {
    const identity = app.services.identity;
    const card: Record<string, unknown> = {
      name: 'Rollcall',
      description: 'A registry',
      version: '1.0.0',
      supportedInterfaces: [{ url: 'https://rollcall.example/api/a2a', protocolBinding: 'JSONRPC' }],
      capabilities: { streaming: false },
      skills: [{ id: 'search', name: 'Search', description: 'Find listings', tags: ['search'] }],
      signatures: [{ protected: 'old', signature: 'old' }],
    };
    const sig = await identity.signAgentCard(card);
    assert.deepEqual(Object.keys(sig).sort(), ['protected', 'signature']);
    const header = JSON.parse(Buffer.from(sig.protected, 'base64url').toString());
    const { keys } = await identity.jwks();
    assert.deepEqual(header, { alg: 'EdDSA', typ: 'JOSE', kid: keys[0]!.kid, jku: `${app.config.publicBaseUrl}/.well-known/jwks.json` });
    const signed = { ...card, signatures: [sig] };
    assert.deepEqual(await verifyAgentCard(signed, keys), { valid: true, kid: keys[0]!.kid });
    assert.deepEqual(await identity.verifyAgentCard(signed), { valid: true, kid: keys[0]!.kid });

    // An independent verifier: jose over the canonical JSON of the card without signatures.
    const { signatures: _s, ...unsigned } = signed;
    const payload = base64url.encode(canonicalize(unsigned)!);
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keys[0]!.x }, format: 'jwk' });
    await flattenedVerify({ protected: sig.protected, signature: sig.signature, payload }, key);

    // Member order does not matter (canonical JSON); content does.
    const reordered = Object.fromEntries(Object.entries(signed).reverse());
    assert.equal((await verifyAgentCard(reordered, keys)).valid, true);
    assert.deepEqual(await verifyAgentCard({ ...signed, name: 'Rollcall!' }, keys), { valid: false, reason: 'bad_signature' });
    assert.deepEqual(await verifyAgentCard({ ...signed, skills: [] }, keys), { valid: false, reason: 'bad_signature' });
    const flipped = `${sig.signature.slice(0, -2)}${sig.signature.endsWith('AA') ? 'BB' : 'AA'}`;
    assert.deepEqual(await verifyAgentCard({ ...card, signatures: [{ ...sig, signature: flipped }] }, keys), { valid: false, reason: 'bad_signature' });
    assert.deepEqual(await verifyAgentCard({ ...card, signatures: [] }, keys), { valid: false, reason: 'unsigned' });
    assert.deepEqual(await verifyAgentCard(signed, [{ ...keys[0]!, kid: 'someone-else' }]), { valid: false, reason: 'unknown_key' });
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid: keys[0]!.kid })).toString('base64url');
    assert.deepEqual(await verifyAgentCard({ ...card, signatures: [{ protected: none, signature: '' }] }, keys), { valid: false, reason: 'wrong_algorithm' });
    // A valid signature among bad ones is enough (A2A: verify at least one).
    assert.equal((await verifyAgentCard({ ...card, signatures: [{ protected: 'x', signature: 'y' }, sig] }, keys)).valid, true);
  });
});

test(`an overlap longer than a day is kept (constants sanity) (${engine})`, () => {
  assert.ok(KEY_OVERLAP_MS >= 7 * DAY_MS);
  assert.ok(KEY_PUBLISH_LEAD_MS > 300_000, 'published longer before signing than a JWKS may be cached');
});
