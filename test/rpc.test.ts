// JSON-RPC answers read from JSON bodies and from event streams, including streams that stay open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerSpotter, postRpc, sseEvents } from '../src/probe/rpc.ts';
import { GuardedClient } from '../src/platform/net/guarded-client.ts';
import { allowPrivatePolicy } from '../src/platform/net/address-policy.ts';

test('event parsing: empty priming events, multi-line data, CRLF framing', () => {
  const text = 'id: 1\ndata: \n\nevent: message\ndata: {"jsonrpc":"2.0",\ndata: "id":7,"result":{}}\n\r\n\r\ndata: tail';
  assert.deepEqual(sseEvents(text), ['', '{"jsonrpc":"2.0",\n"id":7,"result":{}}', 'tail']);
});

test('the answer spotter reads each byte once, across chunk boundaries', () => {
  const spot = answerSpotter(9);
  const stream = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { pad: 'x'.repeat(100_000) } })}\n\ndata: {"jsonrpc":"2.0","id":9,"result":{"ok":true}}\n\n`;
  const bytes = Buffer.from(stream);
  let seen = false;
  for (let i = 0; i < bytes.length && !seen; i += 1) seen = spot(bytes.subarray(i, i + 1));
  assert.equal(seen, true);
  assert.equal(answerSpotter(1)(Buffer.from('data: {"jsonrpc":"2.0","id":2,"result":{}}\n\n')), false, 'another id is not our answer');
});

test('a server that keeps its event stream open after answering does not hold the probe', async () => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: message\ndata: {"jsonrpc":"2.0","id":"rc-1","result":{"hello":"world"}}\n\n');
    // ...and never ends.
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const client = new GuardedClient({ policy: allowPrivatePolicy, userAgent: 'test', totalTimeoutMs: 3000 });
  try {
    const reply = await postRpc(client, `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, { jsonrpc: '2.0', id: 'rc-1', method: 'ping' });
    assert.deepEqual(reply.message?.result, { hello: 'world' });
    assert.ok(reply.http.elapsedMs < 2000, 'answered without waiting for the time limit');
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
