// /metrics on a listener of its own (METRICS_HOST:METRICS_PORT, default 127.0.0.1:9464), never on
// the public port: the counts describe the deployment (routes, queues, job results, process
// memory), which is for its operators' scraper, not for anyone on the internet. A plain node:http
// server: one route, nothing to share with the public app's hooks, limits or logs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  /** Starts listening; resolves with the URL of /metrics (port 0 picks a free one, as tests do). */
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

export function metricsListener(registry: Registry): MetricsListener {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('only GET /metrics is served here\n');
      return;
    }
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('only /metrics is served here\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics could not be collected\n'),
    );
  });
  let listening = false;
  return {
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          listening = true;
          const { address, port: bound } = server.address() as AddressInfo;
          resolve(`http://${address.includes(':') ? `[${address}]` : address}:${bound}/metrics`);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        if (!listening) return resolve();
        listening = false;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
