// https through the guard, against real TLS on loopback (a self-signed certificate the prober is
// told to trust): a redirect from https to http is never followed (downgrade_redirect, and the
// plain-text hop sees no request), and the 10 https points go only to an answer that came over
// https: an agent card served over https whose JSON-RPC endpoint is plain http earns none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';
import { loadConfig } from '../src/config.ts';
import { createProber } from '../src/probe/factory.ts';
import { GuardedClient, OutboundError } from '../src/platform/net/guarded-client.ts';
import { allowPrivatePolicy } from '../src/platform/net/address-policy.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

const HOST = '127.0.0.2';
let cert: { cert: string; private: string };
let agent: AgentPeer;
let server: https.Server;
let base: string;

/** Forwards a request to the plain-http agent and rewrites its base to ours, so every hop is https. */
async function forward(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, path: string) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const answer = await fetch(`${agent.baseUrl}${path}`, { method: req.method, headers: { 'content-type': 'application/json' }, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
  res.writeHead(answer.status, { 'content-type': 'application/json' });
  res.end((await answer.text()).replaceAll(agent.baseUrl, base));
}

before(async () => {
  cert = await selfsigned.generate([{ name: 'commonName', value: HOST }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: HOST }] }],
  });
  agent = await startA2aAgent({ host: '127.0.0.3' });
  server = https.createServer({ key: cert.private, cert: cert.cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    // Downgrades: straight to the plain-http agent.
    if (path === '/down/agent-card.json') {
      res.writeHead(302, { location: `${agent.baseUrl}/down/agent-card.json` });
      return res.end();
    }
    // A card over https whose endpoint stays on plain http.
    if (path === '/mixed/agent-card.json') {
      void fetch(`${agent.baseUrl}/mixed/agent-card.json`).then(async (r) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(await r.text());
      });
      return;
    }
    // Everything else: the agent, every hop over https.
    void forward(req, res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  base = `https://${HOST}:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await agent.close();
});

const prober = () => createProber(loadConfig({ PROBE_ALLOW_PRIVATE: '1', LOG_LEVEL: 'silent' }), { ca: cert.cert });

test('a redirect from https to http is refused as downgrade_redirect; the plain-text hop sees nothing', async () => {
  const client = new GuardedClient({ policy: allowPrivatePolicy, userAgent: 'Rollcall-Probe/test', ca: cert.cert });
  await assert.rejects(client.fetch(`${base}/down/agent-card.json`), (err: unknown) => err instanceof OutboundError && err.reason === 'downgrade_redirect');
  await client.close();
  const report = await prober().probe(`${base}/down/agent-card.json`, { hint: 'agent' });
  assert.equal(report.ok, false);
  assert.equal(report.reason, 'downgrade_redirect');
  assert.equal(report.breakdown.https, 0);
  assert.equal(agent.hits.get('/down/agent-card.json') ?? 0, 0, 'nothing was sent in clear text');
});

test('the https points go to an answer that came over https, not to the URL submitted', async () => {
  const p = prober();
  const all = await p.probe(`${base}/all/agent-card.json`, { hint: 'agent' });
  assert.equal(all.ok, true, all.detail);
  assert.equal(all.breakdown.https, 10, 'card and endpoint over https');
  const mixed = await p.probe(`${base}/mixed/agent-card.json`, { hint: 'agent' });
  assert.equal(mixed.ok, true, mixed.detail);
  assert.match(mixed.target, /^http:\/\//);
  assert.equal(mixed.breakdown.https, 0, 'the JSON-RPC endpoint answered in clear text');
  assert.equal(mixed.score, all.score - 10);
});
