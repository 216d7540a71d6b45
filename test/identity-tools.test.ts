// Signed identity, the tools, through the real MCP door: bind_identity (only the
// listing's owner, with its owner token, at both steps; challenge, proof, each refusal, one binding
// per challenge under concurrency, the owner replacing its key), attest and verify_attestation
// (round trip; tampered, expired, foreign and unsigned tokens each fail with their reason).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CompactSign, SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock, HOUR_MS } from '../src/platform/clock.ts';
import { CHALLENGE_TTL_MS, ATTESTATION_TTL_S } from '../src/identity/operations.ts';

let app: TestApp;
const clock = new ManualClock('2026-11-01T12:00:00.000Z');

before(async () => {
  app = await startApp({ clock });
});
after(async () => {
  await app.close();
});

type Result = { isError?: boolean; structuredContent: Record<string, any> };
let rpcId = 0;

/** A tools/call through POST /api/mcp, as an MCP client sends it. */
async function call(name: string, args: Record<string, unknown>, headers: Record<string, string> = {}, on: TestApp = app): Promise<Result> {
  const res = await on.http.inject({
    method: 'POST',
    url: '/api/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
  });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.ok(body.result, res.body);
  return body.result as Result;
}

const ok = (r: Result) => {
  assert.ok(!r.isError, JSON.stringify(r.structuredContent));
  return r.structuredContent;
};
const failure = (r: Result) => {
  assert.equal(r.isError, true, JSON.stringify(r.structuredContent));
  return r.structuredContent.error as { code: string; message: string; field?: string };
};

let listingCount = 0;
/** The owner token of each listing this file made (every listing here is claimed by its maker). */
const ownerTokens = new Map<string, string>();
async function newListing(): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: `https://agent-${++listingCount}.example.org/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  ownerTokens.set(id, await ownListing(app, id));
  return id;
}
/** The headers the owner of `listingId` sends. */
const owner = (listingId: string) => asOwner(ownerTokens.get(listingId)!);

interface Signer {
  publicJwk: { kty: string; crv: string; x: string };
  privateKey: CryptoKey;
  signText(text: string, alg?: string): Promise<string>;
}

async function newSigner(): Promise<Signer> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const jwk = await exportJWK(publicKey);
  return {
    publicJwk: { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x! },
    privateKey,
    signText: (text, alg = 'EdDSA') => new CompactSign(new TextEncoder().encode(text)).setProtectedHeader({ alg }).sign(privateKey),
  };
}

async function challenge(listingId: string) {
  const c = ok(await call('bind_identity', { listing_id: listingId }, owner(listingId)));
  assert.equal(c.step, 'challenge');
  return c as { challenge_id: string; nonce: string; sign: string; expires_at: string };
}

async function bind(listingId: string, signer: Signer, extra: Record<string, unknown> = {}) {
  const c = await challenge(listingId);
  return call('bind_identity', { listing_id: listingId, challenge_id: c.challenge_id, public_jwk: signer.publicJwk, signature: await signer.signText(c.sign), ...extra }, owner(listingId));
}

test(`the identity tools are listed with titles and annotations (${engine})`, async () => {
  const res = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
  const tools = res.json().result.tools as { name: string; title?: string; description: string; annotations?: Record<string, boolean> }[];
  for (const name of ['bind_identity', 'attest', 'verify_attestation']) {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, name);
    assert.ok(tool.description.length > 80, name);
  }
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  if (byName.attest!.annotations) {
    assert.equal(byName.attest!.annotations.readOnlyHint, true);
    assert.equal(byName.verify_attestation!.annotations!.readOnlyHint, true);
    assert.equal(byName.bind_identity!.annotations!.readOnlyHint, false);
    assert.ok(byName.bind_identity!.title);
  }
});

test(`bind_identity: a challenge, then a proof by a real Ed25519 key binds it (${engine})`, async () => {
  const listingId = await newListing();
  const signer = await newSigner();
  const c = await challenge(listingId);
  assert.match(c.challenge_id, /^chl_/);
  assert.equal(Buffer.from(c.nonce, 'base64url').length, 32);
  assert.equal(c.expires_at, new Date(clock.now().getTime() + CHALLENGE_TTL_MS).toISOString());
  assert.ok(c.sign.includes(c.nonce) && c.sign.includes(c.challenge_id) && c.sign.includes(listingId) && c.sign.includes(app.config.publicBaseUrl));
  const bound = ok(
    await call('bind_identity', { listing_id: listingId, challenge_id: c.challenge_id, public_jwk: signer.publicJwk, signature: await signer.signText(c.sign) }, owner(listingId)),
  );
  assert.equal(bound.step, 'bound');
  assert.equal(bound.listing_id, listingId);
  assert.deepEqual(bound.public_jwk, signer.publicJwk);
  const row = await app.sql.selectFrom('identity_bindings').selectAll().where('listing_id', '=', listingId).executeTakeFirstOrThrow();
  assert.equal(row.kid, bound.kid);
  assert.deepEqual(JSON.parse(row.public_jwk), signer.publicJwk);
  // Used once: the same proof again is refused.
  const again = failure(
    await call('bind_identity', { listing_id: listingId, challenge_id: c.challenge_id, public_jwk: signer.publicJwk, signature: await signer.signText(c.sign) }, owner(listingId)),
  );
  assert.equal(again.code, 'challenge_used');
  // The fully specified alg Ed25519 is accepted too; re-proving the same key keeps one binding.
  const c2 = await challenge(listingId);
  ok(await call('bind_identity', { listing_id: listingId, challenge_id: c2.challenge_id, public_jwk: signer.publicJwk, signature: await signer.signText(c2.sign, 'Ed25519') }, owner(listingId)));
  assert.equal((await app.sql.selectFrom('identity_bindings').select('kid').where('listing_id', '=', listingId).execute()).length, 1);
});

test(`bind_identity refuses every bad proof with a clear 4xx, binding nothing (${engine})`, async () => {
  const listingId = await newListing();
  const signer = await newSigner();
  const other = await newSigner();
  const c = await challenge(listingId);
  const sig = await signer.signText(c.sign);
  const step2 = (patch: Record<string, unknown>, headers = owner(listingId)) =>
    call('bind_identity', { listing_id: listingId, challenge_id: c.challenge_id, public_jwk: signer.publicJwk, signature: sig, ...patch }, headers);

  const cases: [string, Record<string, unknown>, string, string?][] = [
    ['unknown listing', { listing_id: 'lst_nobody' }, 'not_found', 'listing_id'],
    ['unknown challenge', { challenge_id: 'chl_nope' }, 'challenge_not_found', 'challenge_id'],
    ['wrong curve', { public_jwk: { kty: 'OKP', crv: 'X25519', x: signer.publicJwk.x } }, 'unsupported_key', 'public_jwk.crv'],
    ['an EC key', { public_jwk: { kty: 'EC', crv: 'P-256', x: signer.publicJwk.x, y: signer.publicJwk.x } }, 'unsupported_key', 'public_jwk.kty'],
    ['a bad x', { public_jwk: { kty: 'OKP', crv: 'Ed25519', x: 'short' } }, 'invalid_jwk', 'public_jwk.x'],
    ['a private key sent', { public_jwk: { ...signer.publicJwk, d: 'AAAA' } }, 'private_key_sent', 'public_jwk.d'],
    ['a JWK that is not an object', { public_jwk: 'abc' }, 'invalid_input'],
    ['signed by another key', { signature: await other.signText(c.sign) }, 'bad_signature', 'signature'],
    ['signed over other bytes', { signature: await signer.signText(`${c.sign} `) }, 'wrong_payload', 'signature'],
    ['not a JWS', { signature: 'nonsense' }, 'invalid_signature', 'signature'],
    ['alg none', { signature: `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(c.sign).toString('base64url')}.` }, 'invalid_signature', 'signature'],
    ['step 2 incomplete', { signature: undefined }, 'invalid_input', 'signature'],
  ];
  for (const [what, patch, code, field] of cases) {
    const err = failure(await step2(patch));
    assert.equal(err.code, code, `${what}: ${err.message}`);
    if (field) assert.equal(err.field, field, what);
  }
  // Only the owner proves: without its owner token, or with another listing's, a right proof binds nothing.
  const elsewhere = await newListing();
  const stranger = failure(await step2({}, {}));
  assert.deepEqual([stranger.code, stranger.field], ['owner_token_required', 'authorization']);
  const otherOwner = failure(await step2({}, owner(elsewhere)));
  assert.deepEqual([otherOwner.code, otherOwner.field], ['token_mismatch', 'listing_id']);
  // A challenge of another listing is not this listing's, even for that listing's owner.
  const foreign = failure(await call('bind_identity', { listing_id: elsewhere, challenge_id: c.challenge_id, public_jwk: signer.publicJwk, signature: sig }, owner(elsewhere)));
  assert.equal(foreign.code, 'challenge_not_found');
  assert.equal((await app.sql.selectFrom('identity_bindings').select('kid').where('listing_id', 'in', [listingId, elsewhere]).execute()).length, 0);
  // After all those refusals the challenge still works (a failed proof does not spend it).
  ok(await step2({}));

  // Expired: move the clock past the challenge's life.
  const late = await challenge(listingId);
  clock.advance(CHALLENGE_TTL_MS + 1000);
  const expired = failure(
    await call('bind_identity', { listing_id: listingId, challenge_id: late.challenge_id, public_jwk: signer.publicJwk, signature: await signer.signText(late.sign) }, owner(listingId)),
  );
  assert.equal(expired.code, 'challenge_expired');
});

test(`bind_identity: only the owner asks for a challenge, and the owner replaces a bound key with a new proof alone (${engine})`, async () => {
  const listingId = await newListing();
  const elsewhere = await newListing();
  const first = await newSigner();
  const second = await newSigner();
  // Step 1 is the owner's too: no challenge for a stranger or for another listing's owner.
  const anonymous = failure(await call('bind_identity', { listing_id: listingId }));
  assert.equal(anonymous.code, 'owner_token_required');
  assert.equal(failure(await call('bind_identity', { listing_id: listingId }, owner(elsewhere))).code, 'token_mismatch');
  assert.equal(failure(await call('bind_identity', { listing_id: listingId }, asOwner(`rco_${'Z'.repeat(43)}`))).code, 'invalid_owner_token');
  assert.equal((await app.sql.selectFrom('identity_challenges').select('id').where('listing_id', '=', listingId).execute()).length, 0);
  const bound = ok(await bind(listingId, first));
  // The owner's token is the listing's authority: a proof by the new key replaces the bound one.
  const replaced = ok(await bind(listingId, second));
  assert.equal(replaced.replaced, bound.kid);
  assert.notEqual(replaced.kid, bound.kid);
  const row = await app.sql.selectFrom('identity_bindings').selectAll().where('listing_id', '=', listingId).executeTakeFirstOrThrow();
  assert.equal(row.kid, replaced.kid);
  assert.deepEqual(JSON.parse(row.public_jwk), second.publicJwk);
  // A stranger holding a good proof by a third key replaces nothing.
  const third = await newSigner();
  const c = await challenge(listingId);
  const refused = failure(await call('bind_identity', { listing_id: listingId, challenge_id: c.challenge_id, public_jwk: third.publicJwk, signature: await third.signText(c.sign) }));
  assert.equal(refused.code, 'owner_token_required');
  assert.equal((await app.sql.selectFrom('identity_bindings').select('kid').where('listing_id', '=', listingId).executeTakeFirstOrThrow()).kid, replaced.kid);
});

test(`a challenge answered twice at once binds once, also across two instances (${engine})`, async () => {
  const other = await startApp({ joinStore: app.store, clock });
  try {
    for (const second of [app, other]) {
      const listingId = await newListing();
      const signer = await newSigner();
      const c = await challenge(listingId);
      const args = { listing_id: listingId, challenge_id: c.challenge_id, public_jwk: signer.publicJwk, signature: await signer.signText(c.sign) };
      const headers = owner(listingId);
      const results = await Promise.all([call('bind_identity', args, headers), call('bind_identity', args, headers, second), call('bind_identity', args, headers, second)]);
      const wins = results.filter((r) => !r.isError);
      assert.equal(wins.length, 1, JSON.stringify(results.map((r) => r.structuredContent)));
      for (const r of results.filter((x) => x.isError)) assert.equal(r.structuredContent.error.code, 'challenge_used');
      const used = await app.sql.selectFrom('identity_challenges').select('used_at').where('id', '=', c.challenge_id).executeTakeFirstOrThrow();
      assert.ok(used.used_at);
    }
  } finally {
    await other.close();
  }
});

test(`attest -> verify_attestation: the listing's status, score, badge and probed_at, signed with a published key (${engine})`, async () => {
  const listingId = await newListing();
  const probedAt = clock.now().toISOString();
  await setListingState(app, listingId, { lane: 'active', probe_ok: 1, checks_clean: 1, probe_score: 87, probed_at: probedAt, demoed: 1 }, probedAt);
  const att = ok(await call('attest', { listing_id: listingId }));
  const { keys } = await app.services.identity.jwks();
  assert.ok(keys.some((k) => k.kid === att.kid));
  assert.equal(att.alg, 'EdDSA');
  const header = JSON.parse(Buffer.from(att.token.split('.')[0], 'base64url').toString());
  assert.deepEqual({ alg: header.alg, kid: header.kid }, { alg: 'EdDSA', kid: att.kid });
  const c = att.claims;
  assert.equal(c.iss, app.config.publicBaseUrl);
  assert.equal(c.sub, listingId);
  assert.equal(c.exp - c.iat, ATTESTATION_TTL_S);
  assert.deepEqual({ status: c.status, live: c.live, score: c.score, badge: c.badge, probed_at: c.probed_at }, { status: 'active', live: true, score: 87, badge: 'demoed_no_feedback', probed_at: probedAt });
  // No private material in the tool's answer.
  const secrets = (await app.sql.selectFrom('signing_keys').select('private_jwk').execute()).map((r) => JSON.parse(r.private_jwk).d as string);
  for (const d of secrets) assert.ok(!JSON.stringify(att).includes(d));

  const verified = ok(await call('verify_attestation', { token: att.token, listing_id: listingId }));
  assert.deepEqual({ valid: verified.valid, signer: verified.signer, kid: verified.kid }, { valid: true, signer: 'rollcall', kid: att.kid });
  assert.deepEqual(verified.claims, att.claims);
  assert.equal(ok(await call('verify_attestation', { token: att.token })).valid, true);
  // About another listing: wrong_subject.
  const elsewhere = await newListing();
  const wrong = ok(await call('verify_attestation', { token: att.token, listing_id: elsewhere }));
  assert.deepEqual({ valid: wrong.valid, reason: wrong.reason }, { valid: false, reason: 'wrong_subject' });
  // Unknown listings are a 404, not a verdict.
  assert.equal(failure(await call('attest', { listing_id: 'lst_nobody' })).code, 'not_found');
  assert.equal(failure(await call('verify_attestation', { token: att.token, listing_id: 'lst_nobody' })).code, 'not_found');
});

test(`verify_attestation: tampered, expired, foreign, unsigned and garbage tokens fail with their reason (${engine})`, async () => {
  const listingId = await newListing();
  const att = ok(await call('attest', { listing_id: listingId }));
  const [h, p, s] = att.token.split('.') as [string, string, string];
  const reason = async (token: string) => {
    const r = ok(await call('verify_attestation', { token }));
    assert.equal(r.valid, false, token);
    assert.ok(typeof r.detail === 'string');
    return r.reason as string;
  };
  // A changed claim (the score raised) with the original signature.
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  const raised = Buffer.from(JSON.stringify({ ...claims, score: 100, status: 'active' })).toString('base64url');
  assert.equal(await reason(`${h}.${raised}.${s}`), 'bad_signature');
  // A changed signature.
  const sig = Buffer.from(s, 'base64url');
  sig[0] = sig[0]! ^ 0xff;
  assert.equal(await reason(`${h}.${p}.${sig.toString('base64url')}`), 'bad_signature');
  // A token signed by a key that is not in the JWKS (same kid claimed, or a kid of its own).
  const foreign = await newSigner();
  const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: att.kid }).sign(foreign.privateKey);
  assert.equal(await reason(forged), 'bad_signature');
  const stranger = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: 'not-a-key-we-know' }).sign(foreign.privateKey);
  assert.equal(await reason(stranger), 'unknown_key');
  // alg none (an unsecured JWT), and other algorithms.
  const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: att.kid })).toString('base64url')}.${p}.`;
  assert.equal(await reason(none), 'wrong_algorithm');
  const hs = `${Buffer.from(JSON.stringify({ alg: 'HS256', kid: att.kid })).toString('base64url')}.${p}.${s}`;
  assert.equal(await reason(hs), 'wrong_algorithm');
  // Garbage.
  assert.equal(await reason('not.a.jws'), 'malformed');
  assert.equal(await reason('only-one-part'), 'malformed');
  // Expired: move the clock past exp (and the tolerance).
  clock.advance(ATTESTATION_TTL_S * 1000 + HOUR_MS);
  assert.equal(await reason(att.token), 'expired');
});

test(`a token signed by a listing's bound key verifies with signer "listing" (${engine})`, async () => {
  const listingId = await newListing();
  const signer = await newSigner();
  const bound = ok(await bind(listingId, signer));
  const claims = { iss: listingId, sub: 'task-42', said: 'hello' };
  const withKid = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: bound.kid }).setIssuedAt(Math.floor(clock.now().getTime() / 1000)).sign(signer.privateKey);
  const r = ok(await call('verify_attestation', { token: withKid }));
  assert.deepEqual({ valid: r.valid, signer: r.signer, kid: r.kid, listing_ids: r.listing_ids }, { valid: true, signer: 'listing', kid: bound.kid, listing_ids: [listingId] });
  assert.equal(r.claims.said, 'hello');
  // Without a kid, naming the listing selects its key.
  const noKid = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA' }).sign(signer.privateKey);
  const named = ok(await call('verify_attestation', { token: noKid, listing_id: listingId }));
  assert.deepEqual({ valid: named.valid, signer: named.signer }, { valid: true, signer: 'listing' });
  assert.equal(ok(await call('verify_attestation', { token: noKid })).reason, 'unknown_key');
  // Another key claiming the listing's kid fails; a tampered listing token fails.
  const impostor = await newSigner();
  const fake = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: bound.kid }).sign(impostor.privateKey);
  assert.equal(ok(await call('verify_attestation', { token: fake })).reason, 'bad_signature');
  const [h, , s] = withKid.split('.');
  const changed = Buffer.from(JSON.stringify({ ...claims, said: 'goodbye' })).toString('base64url');
  assert.equal(ok(await call('verify_attestation', { token: `${h}.${changed}.${s}` })).reason, 'bad_signature');
  // Expired listing tokens fail too.
  const short = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: bound.kid }).setExpirationTime(Math.floor(clock.now().getTime() / 1000) - 3600).sign(signer.privateKey);
  assert.equal(ok(await call('verify_attestation', { token: short })).reason, 'expired');
});
