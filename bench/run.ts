// `npm run bench`: runs every benchmark and prints its figures as JSON (copied into docs/performance.md).
import { benchPublishToLive } from './publish-to-live.ts';
import { benchActiveList } from './active-list.ts';

const which = process.argv[2];
const benches: Record<string, () => Promise<unknown>> = { 'publish-to-live': benchPublishToLive, 'active-list': benchActiveList };

for (const [name, run] of Object.entries(benches)) {
  if (which && which !== name) continue;
  console.log(JSON.stringify({ bench: name, node: process.version, cpus: 2, at: new Date().toISOString(), results: await run() }, null, 2));
}
process.exit(0);
