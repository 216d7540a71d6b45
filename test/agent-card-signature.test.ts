// The agent card's signature, checked the way outside verifiers check it: each form Rollcall serves
// (v1.0 with `A2A-Version: 1.0`, v0.3 without) is fetched over HTTP and verified
// - by @a2a-js/sdk's `verifyAgentCardSignature`, the key fetched from the signature's `jku`;
// - by this file's own reading of A2A 1.0.1 section 8.4 (a2aproject/A2A: the specification text and
//   specification/a2a.proto at v1.0.1, commit 3303592588e388e62e0f69f701af531d2f4e3991), written
//   apart from src/identity so a shared mistake cannot hide: protobuf field presence over the v1
//   AgentCard, `signatures` and unrecognized members out, RFC 8785, Ed25519 over the detached JWS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import canonicalize from 'canonicalize';
import { startApp, type TestApp } from './helpers/app.ts';

let app: TestApp;
let base: string;

before(async () => {
  app = await startApp();
  base = await app.listen();
});

after(async () => {
  await app?.close();
});

type Json = Record<string, unknown>;

// Per message: REQUIRED fields, `optional` fields, message-typed fields (with presence); every
// other field defined there has implicit presence and is dropped at its default.
const PROTO: Record<string, { required: string[]; optional: string[]; messages: Record<string, string>; implicit: string[] }> = {
  AgentCard: {
    required: ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'],
    optional: ['documentationUrl', 'iconUrl'],
    messages: { supportedInterfaces: 'AgentInterface', provider: 'AgentProvider', capabilities: 'AgentCapabilities', skills: 'AgentSkill' },
    implicit: ['provider', 'securitySchemes', 'securityRequirements'],
  },
  AgentInterface: { required: ['url', 'protocolBinding', 'protocolVersion'], optional: [], messages: {}, implicit: ['tenant'] },
  AgentProvider: { required: ['url', 'organization'], optional: [], messages: {}, implicit: [] },
  AgentCapabilities: { required: [], optional: ['streaming', 'pushNotifications', 'extendedAgentCard'], messages: {}, implicit: ['extensions'] },
  AgentSkill: { required: ['id', 'name', 'description', 'tags'], optional: [], messages: {}, implicit: ['examples', 'inputModes', 'outputModes', 'securityRequirements'] },
};

const empty = (v: unknown) =>
  v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

function section84(value: Json, type: string): Json {
  const m = PROTO[type]!;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    const known = m.required.includes(k) || m.optional.includes(k) || m.implicit.includes(k);
    if (!known) continue; // `signatures` and members the v1 schema does not define
    const sub = m.messages[k];
    const read = sub ? (Array.isArray(v) ? v.map((x) => section84(x as Json, sub)) : section84(v as Json, sub)) : v;
    const isMessage = sub !== undefined && !Array.isArray(v);
    if (m.implicit.includes(k) && !isMessage && empty(read)) continue;
    out[k] = read;
  }
  return out;
}

/** Section 8.4.3: some signature verifies over the canonical card with a key of the JWKS. */
function verifies84(card: Json, jwks: { keys: Json[] }): boolean {
  const payload = Buffer.from(canonicalize(section84(card, 'AgentCard'))!).toString('base64url');
  return (card.signatures as Json[]).some((s) => {
    const header = JSON.parse(Buffer.from(String(s.protected), 'base64url').toString());
    const jwk = jwks.keys.find((k) => k.kid === header.kid);
    if (!jwk || header.alg !== 'EdDSA' || header.typ !== 'JOSE') return false;
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    return verify(null, Buffer.from(`${s.protected}.${payload}`), key, Buffer.from(String(s.signature), 'base64url'));
  });
}

/**
 * The SDK's verifier, the key fetched from the signature's jku: the configured public base's JWKS,
 * read here from the listening test server at the same path.
 */
async function sdkVerifies(card: Json): Promise<string | true> {
  const seen: (string | undefined)[] = [];
  const verifier = verifyAgentCardSignature(async (kid, jku) => {
    seen.push(jku);
    const jwks = (await (await fetch(`${base}${new URL(jku!).pathname}`)).json()) as { keys: Json[] };
    const jwk = jwks.keys.find((k) => k.kid === kid);
    if (!jwk) throw new Error(`no key ${kid} at ${jku}`);
    return jwk as never;
  });
  try {
    await verifier(card as never);
    assert.deepEqual(seen, [`${app.config.publicBaseUrl}/.well-known/jwks.json`]);
    return true;
  } catch (e) {
    return (e as Error).message;
  }
}

const FORMS: { name: string; headers: Record<string, string> }[] = [
  { name: 'v1.0 (A2A-Version: 1.0)', headers: { 'a2a-version': '1.0' } },
  { name: 'v0.3 (no A2A-Version)', headers: {} },
];

for (const form of FORMS) {
  test(`the ${form.name} agent card's signature verifies by section 8.4 and with @a2a-js/sdk's verifier`, async () => {
    const jwks = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: Json[] };
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
      const card = (await (await fetch(`${base}${path}`, { headers: form.headers })).json()) as Json;
      assert.ok(Array.isArray(card.signatures) && card.signatures.length > 0, `${path}: signed`);
      assert.equal(verifies84(card, jwks), true, `${path}: section 8.4 verification`);
      assert.equal(await sdkVerifies(card), true, `${path}: @a2a-js/sdk verification`);

      // A changed card fails both ways, in a signed member and in a nested one.
      for (const changed of [
        { ...card, name: 'Someone Else' },
        { ...card, capabilities: { ...(card.capabilities as Json), streaming: true } },
        { ...card, supportedInterfaces: [{ url: 'https://evil.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] },
      ]) {
        assert.equal(verifies84(changed, jwks), false, `${path}: a changed card fails section 8.4`);
        assert.notEqual(await sdkVerifies(changed), true, `${path}: a changed card fails the SDK`);
      }
    }
  });
}

test('both forms carry the same signature: it covers the v1 card, which the v0.3 form extends', async () => {
  const v1 = (await (await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })).json()) as Json;
  const v03 = (await (await fetch(`${base}/.well-known/agent-card.json`)).json()) as Json;
  assert.deepEqual(v03.signatures, v1.signatures);
  assert.equal(canonicalize(section84(v03, 'AgentCard')), canonicalize(section84(v1, 'AgentCard')));
});

test("Rollcall's canonicalization gives section 8.4.1's own example", async () => {
  const { canonicalCardJson } = await import('../src/probe/card-canonical.ts');
  const fragment = { name: 'Example Agent', description: '', capabilities: { streaming: false, pushNotifications: false, extensions: [] }, skills: [] };
  const expected = '{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}';
  assert.equal(canonicalCardJson(fragment), expected);
  assert.equal(canonicalize(section84(fragment, 'AgentCard')), expected);
});
