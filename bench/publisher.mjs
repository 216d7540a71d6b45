// The publishers of the probe-throughput benchmark, in a process of their own as real publishers
// are: their HTTP client's CPU is not charged to the service's event loop. Writes "ready", reads
// one JSON line on stdin ({ bases, urls, concurrency }), publishes urls[i] to bases[i % bases.length],
// and writes one JSON line: { seconds, errors } (status and error code -> count).
// node:http with a keep-alive agent rather than fetch: fetch cost about 1 ms of CPU per publish,
// taken from the two cores the service and the peer share (see docs/performance.md).
import http from 'node:http';
import readline from 'node:readline';

const input = readline.createInterface({ input: process.stdin });
const line = new Promise((resolve) => input.once('line', resolve));
process.stdout.write('ready\n');
line.then(() => input.close());
const { bases, urls, concurrency } = JSON.parse(await line);
const errors = {};
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
/** POSTs one JSON body; resolves with the status and the parsed answer. */
const post = (url, body) =>
  new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < urls.length) {
      const i = next++;
      // Alternate between instances: each publish wakes the pool of the instance that took it.
      const { status, body } = await post(`${bases[i % bases.length]}/api/publish`, { url: urls[i] });
      if (status < 200 || status > 299 || body.outcome !== 'listed') {
        const key = `${status} ${body.error?.code ?? body.outcome}`;
        errors[key] = (errors[key] ?? 0) + 1;
      }
    }
  }),
);
agent.destroy();
process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - started) / 1000, errors })}\n`);
