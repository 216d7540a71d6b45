// Probes are signed per Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol at be12662): a real
// HTTP server on 127.0.0.2 receives a real probe of a published URL and verifies every request the
// way an origin would, with its own RFC 9421 code (signature base per section 2.5) and the key it
// fetches from the directory the `Signature-Agent` header names. PROBE_SIGNATURES=0: no signature.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify as edVerify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';

interface Origin {
  url: string;
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/**
 * A publisher's origin that records every request and answers each with a 404 (the probe fails;
 * what it sent is what counts), or with a redirect to `redirectTo`.
 */
async function startOrigin(host = '127.0.0.2', redirectTo?: string): Promise<Origin> {
  const requests: Origin['requests'] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    req.resume();
    if (redirectTo) res.writeHead(302, { location: redirectTo }).end();
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not here"}');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://${host}:${port}/agent`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

// --- An origin's RFC 8941 / RFC 9421 reading, written for this test (no code of Rollcall's) ---

type Bare = string | number | boolean | { token: string } | Buffer;
interface Item {
  value: Bare | Item[];
  params: [string, Bare][];
}

class SfReader {
  i = 0;
  constructor(readonly s: string) {}
  ws() {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }
  key(): string {
    const m = /^[a-z*][a-z0-9_.*-]*/.exec(this.s.slice(this.i));
    if (!m) throw new Error(`no key at ${this.i} in ${this.s}`);
    this.i += m[0].length;
    return m[0];
  }
  bare(): Bare {
    const c = this.s[this.i];
    if (c === '"') {
      let out = '';
      for (this.i++; ; this.i++) {
        const ch = this.s[this.i];
        if (ch === undefined) throw new Error('unterminated string');
        if (ch === '\\') out += this.s[++this.i];
        else if (ch === '"') {
          this.i++;
          return out;
        } else out += ch;
      }
    }
    if (c === ':') {
      const end = this.s.indexOf(':', this.i + 1);
      const b = Buffer.from(this.s.slice(this.i + 1, end), 'base64');
      this.i = end + 1;
      return b;
    }
    if (c === '?') {
      this.i += 2;
      return this.s[this.i - 1] === '1';
    }
    const num = /^-?\d+/.exec(this.s.slice(this.i));
    if (num) {
      this.i += num[0].length;
      return Number(num[0]);
    }
    const tok = /^[A-Za-z*][!#$%&'*+.^_`|~0-9A-Za-z:/-]*/.exec(this.s.slice(this.i))!;
    this.i += tok[0].length;
    return { token: tok[0] };
  }
  params(): [string, Bare][] {
    const out: [string, Bare][] = [];
    while (this.s[this.i] === ';') {
      this.i++;
      this.ws();
      const k = this.key();
      let v: Bare = true;
      if (this.s[this.i] === '=') {
        this.i++;
        v = this.bare();
      }
      out.push([k, v]);
    }
    return out;
  }
  item(): Item {
    if (this.s[this.i] === '(') {
      this.i++;
      const inner: Item[] = [];
      for (;;) {
        this.ws();
        if (this.s[this.i] === ')') {
          this.i++;
          break;
        }
        inner.push({ value: this.bare(), params: this.params() });
      }
      return { value: inner, params: this.params() };
    }
    return { value: this.bare(), params: this.params() };
  }
  dictionary(): Map<string, Item> {
    const out = new Map<string, Item>();
    for (;;) {
      this.ws();
      const k = this.key();
      if (this.s[this.i] === '=') {
        this.i++;
        out.set(k, this.item());
      } else out.set(k, { value: true, params: this.params() });
      this.ws();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] !== ',') throw new Error(`expected a comma at ${this.i} in ${this.s}`);
      this.i++;
    }
  }
}

const serializeBare = (v: Bare): string => {
  if (typeof v === 'string') return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? '?1' : '?0';
  if (Buffer.isBuffer(v)) return `:${v.toString('base64')}:`;
  return v.token;
};
const serializeParams = (p: [string, Bare][]) => p.map(([k, v]) => (v === true ? `;${k}` : `;${k}=${serializeBare(v)}`)).join('');
const serializeItem = (it: Item): string =>
  Array.isArray(it.value) ? `(${it.value.map(serializeItem).join(' ')})${serializeParams(it.params)}` : `${serializeBare(it.value)}${serializeParams(it.params)}`;

const param = (it: Item, name: string) => it.params.find(([k]) => k === name)?.[1];

/** RFC 9421 section 2.5: the signature base of one Signature-Input member over a received request. */
function signatureBase(input: Item, headers: IncomingHttpHeaders): string {
  const lines = (input.value as Item[]).map((c) => {
    const name = c.value as string;
    const id = serializeItem(c);
    if (name === '@authority') return `${id}: ${String(headers.host).toLowerCase()}`;
    const raw = headers[name];
    assert.equal(typeof raw, 'string', `the covered field ${name} is on the request`);
    const key = param(c, 'key');
    if (key === undefined) return `${id}: ${(raw as string).trim()}`;
    // section 2.1.2: a dictionary member, re-serialized
    const member = new SfReader(raw as string).dictionary().get(key as string);
    assert.ok(member, `the ${name} dictionary has the member ${String(key)}`);
    return `${id}: ${serializeItem(member)}`;
  });
  return [...lines, `"@signature-params": ${serializeItem(input)}`].join('\n');
}

const thumbprint = (x: string) => createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');

/** Verifies a probe request as an origin would; returns the directory URL it is attributed to and the nonce. */
async function verifyRequest(headers: IncomingHttpHeaders, directories: Map<string, { keys: { kid: string; x: string }[] }>, fetchDirectory: (url: string) => Promise<{ keys: { kid: string; x: string }[] }>) {
  const inputs = new SfReader(String(headers['signature-input'])).dictionary();
  const signatures = new SfReader(String(headers.signature)).dictionary();
  const agents = new SfReader(String(headers['signature-agent'])).dictionary();
  assert.equal(inputs.size, 1);
  const [label, input] = [...inputs][0]!;
  const components = (input.value as Item[]).map(serializeItem);
  assert.ok(components.includes('"@authority"'), 'covers @authority');
  assert.ok(components.includes(`"signature-agent";key="${label}"`), 'covers its own Signature-Agent member');
  assert.equal(param(input, 'tag'), 'web-bot-auth');
  assert.equal(param(input, 'alg'), 'ed25519');
  const created = param(input, 'created') as number;
  const expires = param(input, 'expires') as number;
  const now = Date.now() / 1000;
  assert.ok(Math.abs(created - now) < 120, 'created is now');
  assert.ok(expires > created && expires - created <= 24 * 3600, 'expires soon after created');
  const nonce = param(input, 'nonce');
  assert.equal(typeof nonce, 'string');
  const agent = agents.get(label)!;
  assert.equal(agent.params.length, 0, 'a Signature-Agent member carries no parameters');
  const directoryUrl = agent.value as string;
  let directory = directories.get(directoryUrl);
  if (!directory) {
    directory = await fetchDirectory(directoryUrl);
    directories.set(directoryUrl, directory);
  }
  const keyid = param(input, 'keyid') as string;
  const key = directory.keys.find((k) => k.kid === keyid);
  assert.ok(key, `keyid ${keyid} is in the directory`);
  assert.equal(thumbprint(key.x), keyid, 'keyid is the RFC 7638 thumbprint');
  const signature = signatures.get(label)!.value as Buffer;
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
  const base = signatureBase(input, headers);
  assert.equal(edVerify(null, Buffer.from(base), publicKey, signature), true, `the signature verifies over\n${base}`);
  const elsewhere = base.replace(/^"@authority": .*$/m, '"@authority": evil.example');
  assert.equal(edVerify(null, Buffer.from(elsewhere), publicKey, signature), false, 'bound to the authority');
  return { directoryUrl, nonce: nonce as string };
}

async function probeOnce(app: TestApp, origin: Origin) {
  const published = await postJson(app, '/api/publish', { url: origin.url });
  assert.equal(published.status < 300, true, JSON.stringify(published.body));
  await waitForLane(app, published.body.id, ['active', 'failed']);
  assert.ok(origin.requests.length > 0, 'the probe reached the origin');
}

const env = { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', REPUBLISH_MIN_INTERVAL_S: '0' };

for (const probeThread of [true, false]) {
  test(`every probe request is signed and verifies with the key of the app's published directory (${probeThread ? 'probe thread' : 'event loop'}, ${engine})`, async () => {
    const origin = await startOrigin();
    const app = await startApp({ probing: true, probeThread, env });
    try {
      await probeOnce(app, origin);
      const base = await app.listen();
      const fetched: string[] = [];
      // The directory is named by its public URL; this app answers it on its loopback port.
      const fetchDirectory = async (url: string) => {
        fetched.push(url);
        const res = await fetch(`${base}${new URL(url).pathname}`, { headers: { accept: 'application/http-message-signatures-directory+json' } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/http-message-signatures-directory+json');
        return (await res.json()) as { keys: { kid: string; x: string }[] };
      };
      const directories = new Map<string, { keys: { kid: string; x: string }[] }>();
      const nonces = new Set<string>();
      for (const { headers, method, path } of origin.requests) {
        assert.ok(headers.signature && headers['signature-input'] && headers['signature-agent'], `${method} ${path} carries Signature, Signature-Input and Signature-Agent`);
        const { directoryUrl, nonce } = await verifyRequest(headers, directories, fetchDirectory);
        assert.equal(directoryUrl, `${app.config.publicBaseUrl}/.well-known/http-message-signatures-directory`);
        nonces.add(nonce);
      }
      assert.equal(nonces.size, origin.requests.length, 'a fresh nonce on every request');
      assert.equal(fetched.length, 1, 'one directory for every request');
      assert.match(String(origin.requests[0]!.headers['user-agent']), /^Rollcall-Probe\//);
    } finally {
      await app.close();
      await origin.close();
    }
  });
}

test(`a redirect hop is signed again, for the authority it goes to (${engine})`, async () => {
  const target = await startOrigin('127.0.0.3');
  const origin = await startOrigin('127.0.0.2', target.url);
  const app = await startApp({ probing: true, env });
  try {
    await probeOnce(app, origin);
    assert.ok(target.requests.length > 0, 'the probe followed the redirect');
    const base = await app.listen();
    const directories = new Map<string, { keys: { kid: string; x: string }[] }>();
    const fetchDirectory = async (url: string) => (await (await fetch(`${base}${new URL(url).pathname}`)).json()) as { keys: { kid: string; x: string }[] };
    for (const { headers } of [...origin.requests, ...target.requests]) await verifyRequest(headers, directories, fetchDirectory);
    assert.match(String(target.requests[0]!.headers.host), /^127\.0\.0\.3:/);
  } finally {
    await app.close();
    await Promise.all([origin.close(), target.close()]);
  }
});

test(`PROBE_SIGNATURES=0: probes carry no signature (${engine})`, async () => {
  const origin = await startOrigin();
  const app = await startApp({ probing: true, env: { ...env, PROBE_SIGNATURES: '0' } });
  try {
    await probeOnce(app, origin);
    for (const { headers } of origin.requests) {
      assert.equal(headers.signature, undefined);
      assert.equal(headers['signature-input'], undefined);
      assert.equal(headers['signature-agent'], undefined);
    }
  } finally {
    await app.close();
    await origin.close();
  }
});
