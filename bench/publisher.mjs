// The publishers of the probe-throughput benchmark, in a process of their own as real publishers
// are: their HTTP client's CPU is not charged to the service's event loop. Writes "ready", reads
// one JSON line on stdin ({ bases, urls, concurrency }), publishes urls[i] to bases[i % bases.length],
// and writes one JSON line: { seconds, errors } (status and error code -> count).
import readline from 'node:readline';

const input = readline.createInterface({ input: process.stdin });
const line = new Promise((resolve) => input.once('line', resolve));
process.stdout.write('ready\n');
line.then(() => input.close());
const { bases, urls, concurrency } = JSON.parse(await line);
const errors = {};
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < urls.length) {
      const i = next++;
      // Alternate between instances: each publish wakes the pool of the instance that took it.
      const res = await fetch(`${bases[i % bases.length]}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: urls[i] }) });
      const body = await res.json();
      if (!res.ok || body.outcome !== 'listed') {
        const key = `${res.status} ${body.error?.code ?? body.outcome}`;
        errors[key] = (errors[key] ?? 0) + 1;
      }
    }
  }),
);
process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - started) / 1000, errors })}\n`);
