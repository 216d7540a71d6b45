// A loopback server of bad answers, each on its own path: what the prober must fail cleanly on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Fixtures {
  base: string;
  connections(): number;
  close(): Promise<void>;
}

export async function startFixtures(): Promise<Fixtures> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    switch (path) {
      case '/plain.json':
        return req.method === 'GET' ? json(200, { hello: 'world', items: [1, 2, 3] }) : json(405, { error: 'method not allowed' });
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<!doctype html><html><body><h1>Welcome</h1></body></html>');
      case '/huge': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = (): void => {
          while (sent < 5 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      case '/slow':
        return void setTimeout(() => json(200, { late: true }), 5000).unref();
      case '/loop-a':
        res.writeHead(302, { location: '/loop-b' });
        return res.end();
      case '/loop-b':
        res.writeHead(302, { location: '/loop-a' });
        return res.end();
      case '/protected/mcp':
        return json(401, { error: 'unauthorized' }, { 'www-authenticate': `Bearer resource_metadata="http://${req.headers.host}/.well-known/oauth-protected-resource"` });
      case '/.well-known/oauth-protected-resource':
        return json(200, { resource: `http://${req.headers.host}/protected/mcp`, authorization_servers: ['https://auth.example.org'] });
      case '/broken-card.json':
        return json(200, { skills: [{ id: 'x' }], description: 'no name, skills without names' });
      case '/mute-agent.json':
        return json(200, {
          name: 'Mute Agent',
          description: 'Declares an endpoint that does not speak JSON-RPC.',
          url: `http://${req.headers.host}/page`,
          protocolVersion: '0.3.0',
          skills: [{ id: 'nothing', name: 'Nothing' }],
        });
      case '/bad-endpoint-card.json':
        return json(200, { name: 'Broken Endpoint', description: 'Its endpoint is not a URL.', url: 'http://[::1', skills: [{ id: 'x', name: 'X' }] });
      case '/marked-up-card.json':
        return json(200, {
          name: '<script>alert(1)</script>Agent',
          description: 'A card with markup in its name.',
          url: `http://${req.headers.host}/never`,
          skills: [],
        });
      default:
        return json(404, { error: 'not found' });
    }
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
