// Misbehaving partners for execute_compose tests, on loopback: one that holds every request open
// (a step that must time out) and one that answers garbage (not JSON-RPC) to everything.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BadPeer {
  url: string;
  /** Requests received (a guard test asserts none arrived). */
  hits: number;
  close(): Promise<void>;
}

export async function startBadPeer(mode: 'slow' | 'garbage', holdMs = 10_000): Promise<BadPeer> {
  const timers = new Set<NodeJS.Timeout>();
  const peer = { url: '', hits: 0, close: async () => {} } as BadPeer;
  const server = http.createServer((req, res) => {
    peer.hits++;
    req.resume();
    if (mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>\u0000\u0001 not json {{{ <script>alert(1)</script></body></html>');
      return;
    }
    const t = setTimeout(() => {
      timers.delete(t);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":"rc-init","result":{}}');
    }, holdMs);
    timers.add(t);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return peer;
}
