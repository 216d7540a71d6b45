// The guarded outbound client: nothing reaches a non-public address. Traffic goes only to
// loopback listeners started here; private ranges are exercised through an injected resolver
// and a dial spy, so nothing ever dials them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { GuardedClient, OutboundError, type Resolver } from '../src/platform/net/guarded-client.ts';
import { isPublicAddress, publicOnlyPolicy, allowPrivatePolicy, type AddressPolicy } from '../src/platform/net/address-policy.ts';
import { hostKey } from '../src/platform/net/host-key.ts';

const UA = 'Rollcall-Probe/test (+http://localhost/for-agents)';

/** A loopback listener that counts every TCP connection it is offered. */
async function countingListener(host: string, handler?: http.RequestListener) {
  const server = http.createServer(handler ?? ((_req, res) => res.end('{"ok":true}')));
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { server, port, connections: () => connections, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const anyPortPublicOnly: AddressPolicy = { allowAddress: isPublicAddress, allowPort: () => true };

test('address policy: only public unicast passes, whatever the spelling', () => {
  for (const ok of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2606:4700::1]']) assert.ok(isPublicAddress(ok), ok);
  const refused = [
    '127.0.0.1', '127.255.255.254', '0.0.0.0', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '192.0.2.1', '198.18.0.1', '224.0.0.1', '255.255.255.255', '240.0.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1',
    '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::7f00:1', // IPv4-mapped and IPv4-compatible
    '64:ff9b::7f00:1', '64:ff9b::a00:1', '64:ff9b:1::a00:1', // NAT64
    '2002:7f00:1::1', '2002:a00:1::1', // 6to4
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    // Cloud providers' service addresses: Azure's WireServer (ordinary unicast otherwise), AWS ECS
    // task metadata, Alibaba's and Oracle's metadata, AWS's and Google's IPv6 metadata, DNS and time.
    '168.63.129.16', '::ffff:168.63.129.16', '169.254.170.2', '100.100.100.200', '192.0.0.192',
    'fd00:ec2::254', 'fd00:ec2::23', 'fd00:ec2::123', 'fd20:ce::254',
    'not-an-ip', '',
  ];
  for (const bad of refused) assert.ok(!isPublicAddress(bad), bad);
  assert.ok(publicOnlyPolicy.allowPort(443) && publicOnlyPolicy.allowPort(80));
  assert.ok(!publicOnlyPolicy.allowPort(8080) && !publicOnlyPolicy.allowPort(22));
});

let v4: Awaited<ReturnType<typeof countingListener>>;
let v6: Awaited<ReturnType<typeof countingListener>> | undefined;
before(async () => {
  v4 = await countingListener('127.0.0.1');
  v6 = await countingListener('::1').catch(() => undefined); // a host without IPv6 loopback skips only that spelling
});
after(async () => {
  await v4.close();
  await v6?.close();
});

test('loopback in every spelling is refused before a byte reaches the listener', async () => {
  const loopbackResolver: Resolver = async (name) => (name === 'sneaky.example' ? ['127.0.0.1'] : ['127.0.0.1']);
  const dials: string[] = [];
  const client = new GuardedClient({ policy: anyPortPublicOnly, userAgent: UA, resolver: loopbackResolver, onDial: (a) => dials.push(a) });
  const p = v4.port;
  const urls = [
    `http://127.0.0.1:${p}/`,
    `http://localhost:${p}/`,
    `http://127.1:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://2130706433:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://sneaky.example:${p}/`,
    `http://[::1]:${v6?.port ?? p}/`,
  ];
  for (const url of urls) {
    await assert.rejects(client.fetch(url), (err: unknown) => err instanceof OutboundError && err.reason === 'blocked_address', url);
  }
  assert.equal(v4.connections(), 0);
  assert.equal(v6?.connections() ?? 0, 0);
  assert.deepEqual(dials, []);
  await client.close();
});

test('localhost goes through the system resolver and is refused too', async () => {
  const client = new GuardedClient({ policy: anyPortPublicOnly, userAgent: UA });
  await assert.rejects(client.fetch(`http://localhost:${v4.port}/`), (err: unknown) => (err as OutboundError).reason === 'blocked_address');
  assert.equal(v4.connections(), 0);
  await client.close();
});

test('private, link-local, NAT64, 6to4 and Teredo answers of a resolver are refused without dialing', async () => {
  const answers: Record<string, string[]> = {
    'ten.example': ['10.0.0.1'],
    'oneseventwo.example': ['172.16.5.4'],
    'oneninetwo.example': ['192.168.0.10'],
    'metadata.example': ['169.254.169.254'],
    'ula.example': ['fd00::1'],
    'linklocal6.example': ['fe80::1'],
    'nat64.example': ['64:ff9b::a9fe:a9fe'],
    'sixtofour.example': ['2002:c0a8:1::1'],
    'teredo.example': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    'mapped.example': ['::ffff:192.168.0.1'],
    'mixed.example': ['127.0.0.2', '10.0.0.1'], // one "public" (per this test's policy) and one private: refused whole
    'wireserver.example': ['168.63.129.16'],
  };
  const dials: string[] = [];
  const policy: AddressPolicy = { allowAddress: (ip) => ip === '127.0.0.2' || isPublicAddress(ip), allowPort: () => true };
  const client = new GuardedClient({ policy, userAgent: UA, resolver: async (n) => answers[n] ?? [], onDial: (a) => dials.push(a) });
  for (const host of Object.keys(answers)) {
    await assert.rejects(client.fetch(`https://${host}/card.json`), (err: unknown) => (err as OutboundError).reason === 'blocked_address', host);
  }
  assert.deepEqual(dials, [], 'nothing was dialed');
  await client.close();
});

test('the connected socket\'s address is checked again after the dial: a connection that ends somewhere refused sends nothing', async () => {
  // The policy allows 127.0.0.2 when the name is resolved and refuses it once the socket is
  // connected, as when what answers is not what was resolved (a rebinding resolver's second
  // answer, a NAT or proxy in the way). Only the check after the dial can catch it.
  let requests = 0;
  const listener = await countingListener('127.0.0.2', (_req, res) => {
    requests++;
    res.end('{"ok":true}');
  });
  let asked = 0;
  const policy: AddressPolicy = { allowAddress: (ip) => ip === '127.0.0.2' && ++asked === 1, allowPort: () => true };
  const client = new GuardedClient({ policy, userAgent: UA, resolver: async () => ['127.0.0.2'] });
  await assert.rejects(client.fetch(`http://turns.example:${listener.port}/card.json`), (err: unknown) => err instanceof OutboundError && err.reason === 'blocked_address' && /connected to a non-public address/.test(err.message));
  assert.equal(asked, 2, 'asked at resolve time and again for the connected socket');
  assert.equal(listener.connections(), 1, 'the dial happened');
  assert.equal(requests, 0, 'no request was sent on it');
  await client.close();
  await listener.close();
});

test('a redirect from an allowed first hop to a refused address is refused', async () => {
  const target = await countingListener('127.0.0.1');
  const first = await countingListener('127.0.0.2', (_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${target.port}/internal` });
    res.end();
  });
  // This policy treats 127.0.0.2 as public, so the first hop is allowed and the second is not.
  const policy: AddressPolicy = { allowAddress: (ip) => ip === '127.0.0.2' || isPublicAddress(ip), allowPort: () => true };
  const client = new GuardedClient({ policy, userAgent: UA });
  await assert.rejects(client.fetch(`http://127.0.0.2:${first.port}/card`), (err: unknown) => (err as OutboundError).reason === 'blocked_address');
  assert.equal(first.connections(), 1);
  assert.equal(target.connections(), 0, 'the refused hop saw no connection');
  await client.close();
  await first.close();
  await target.close();
});

test('the default policy refuses ports other than 80 and 443, and non-http schemes', async () => {
  const client = new GuardedClient({ policy: publicOnlyPolicy, userAgent: UA });
  await assert.rejects(client.fetch('https://example.com:8443/'), (err: unknown) => (err as OutboundError).reason === 'blocked_address');
  await assert.rejects(client.fetch('file:///etc/passwd'), (err: unknown) => (err as OutboundError).reason === 'invalid_url');
  await assert.rejects(client.fetch('http://user:pw@example.com/'), (err: unknown) => (err as OutboundError).reason === 'invalid_url');
  await client.close();
});

test('limits: body cap, total time, redirect loops, dead ports; the User-Agent is honest', async () => {
  let seenUa = '';
  const server = await countingListener('127.0.0.1', (req, res) => {
    seenUa = String(req.headers['user-agent']);
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 5 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
    if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop2' });
      return res.end();
    }
    if (req.url === '/loop2') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    res.end('fine');
  });
  const client = new GuardedClient({ policy: allowPrivatePolicy, userAgent: UA, totalTimeoutMs: 400, maxBodyBytes: 1024 * 1024 });
  const base = `http://127.0.0.1:${server.port}`;
  const ok = await client.fetch(`${base}/`);
  assert.equal(ok.text(), 'fine');
  assert.equal(seenUa, UA);
  await assert.rejects(client.fetch(`${base}/big`), (err: unknown) => (err as OutboundError).reason === 'too_large');
  await assert.rejects(client.fetch(`${base}/slow`), (err: unknown) => (err as OutboundError).reason === 'timeout');
  await assert.rejects(client.fetch(`${base}/loop`), (err: unknown) => (err as OutboundError).reason === 'redirect_loop');
  const dead = await countingListener('127.0.0.1');
  const deadPort = dead.port;
  await dead.close();
  await assert.rejects(client.fetch(`http://127.0.0.1:${deadPort}/`), (err: unknown) => (err as OutboundError).reason === 'unreachable');
  await client.close();
  await server.close();
});

test('every resolved address is tried in turn: an unreachable first answer does not end the request', async () => {
  // Nothing listens on 127.0.0.9 at this port, so the first dial is refused and the second answers.
  const resolver: Resolver = async () => ['127.0.0.9', '127.0.0.1'];
  const dials: string[] = [];
  const client = new GuardedClient({ policy: allowPrivatePolicy, userAgent: UA, resolver, onDial: (a) => dials.push(a) });
  try {
    const res = await client.fetch(`http://two-answers.example:${v4.port}/`);
    assert.equal(res.status, 200);
    assert.deepEqual(dials, ['127.0.0.9', '127.0.0.1']);
  } finally {
    await client.close();
  }
});

test('the per-host cap counts one registrable domain or one address as one host', () => {
  assert.equal(hostKey('https://a.example.org/mcp'), 'example.org');
  assert.equal(hostKey('https://b.example.org:8443/mcp'), 'example.org', 'another name and port of the same domain');
  assert.equal(hostKey('https://alice.github.io/x'), 'alice.github.io', 'a private suffix keeps its tenants apart');
  assert.notEqual(hostKey('https://alice.github.io/x'), hostKey('https://bob.github.io/x'));
  assert.equal(hostKey('https://x.y.example.co.uk/'), 'example.co.uk');
  assert.equal(hostKey('http://127.0.0.1:8080/'), '127.0.0.1');
  assert.equal(hostKey('http://[::1]:9/'), '::1');
});
