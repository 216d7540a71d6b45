// `npm run bench`: runs every benchmark and prints its figures as JSON (copied into docs/performance.md).
import { benchPublishToLive } from './publish-to-live.ts';
import { benchActiveList } from './active-list.ts';
import { benchReadPaths } from './read-paths.ts';
import { benchProbeThroughput } from './probe-throughput.ts';
import { benchMcpEndpoint } from './mcp-endpoint.ts';
import { benchSearchScale } from './search-scale.ts';
import { benchSearchQuality } from './search-quality/run.ts';
import { benchSearchFreshness } from './search-freshness.ts';
import { benchImproveKernel } from './improve-kernel.ts';
import { benchSenseTraces } from './sense-traces.ts';
import { benchExecuteCompose } from './execute-compose.ts';
import { benchClaimBacklog } from './claim-backlog.ts';
import { benchStartTime } from './start-time.ts';
import { benchCluster } from './cluster.ts';
import { benchCatalogVerify } from './catalog-verify.ts';
import { benchFindTools } from './find-tools/run.ts';

const which = process.argv[2];
const benches: Record<string, () => Promise<unknown>> = {
  'publish-to-live': benchPublishToLive,
  'active-list': benchActiveList,
  'read-paths': benchReadPaths,
  'probe-throughput': benchProbeThroughput,
  'mcp-endpoint': benchMcpEndpoint,
  'search-scale': benchSearchScale,
  'search-quality': () => benchSearchQuality(),
  'search-freshness': benchSearchFreshness,
  'improve-kernel': benchImproveKernel,
  'sense-traces': benchSenseTraces,
  'execute-compose': benchExecuteCompose,
  'claim-backlog': benchClaimBacklog,
  'start-time': benchStartTime,
  cluster: benchCluster,
  'catalog-verify': benchCatalogVerify,
  'find-tools': () => benchFindTools(),
};

for (const [name, run] of Object.entries(benches)) {
  if (which && which !== name) continue;
  console.log(JSON.stringify({ bench: name, node: process.version, cpus: 2, at: new Date().toISOString(), results: await run() }, null, 2));
}
process.exit(0);
