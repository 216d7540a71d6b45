// The few facts of an entry's measured health that search narrows by (ard_search's live_only,
// remote_only and max_tool_tokens), read with the entry so the index can keep them beside its text:
// a query then narrows while it ranks instead of reading and dropping up to 100 candidates.
// The same rules as the health a hit shows (registry/remote-health-view.ts): live when a remote's
// last check was live, remote when a remote has a URL (not a template), and the tool cost of the
// first live remote that listed its tools.
import type { Executor } from '../platform/db/executor.ts';
import { checksByKey } from './checks-store.ts';
import { remotesOf } from './remote-health.ts';
import { tokensEstimate } from './context-cost.ts';

export interface HealthFacts {
  live: boolean;
  remote: boolean;
  /** Estimated tokens of the first live remote's tool list; null when no live remote listed its tools. */
  toolTokens: number | null;
}

/** The health facts of each of these entries, by name: one read of their remotes' checks. */
export async function healthFactsOf(ex: Executor, entries: { name: string; server: Record<string, unknown> }[]): Promise<Map<string, HealthFacts>> {
  const remotes = entries.map((e) => remotesOf(e.server));
  const keys = remotes.flat().flatMap((r) => (r.key ? [r.key] : []));
  const checks = keys.length ? await checksByKey(ex, keys) : new Map();
  return new Map(
    entries.map((e, i) => {
      const of = remotes[i]!;
      const live = of.filter((r) => r.key && checks.get(r.key)?.status === 'live').map((r) => checks.get(r.key!)!);
      const listed = live.find((c) => c.tool_count !== null);
      return [e.name, { live: live.length > 0, remote: of.some((r) => r.notCheckable !== 'url_template'), toolTokens: listed ? tokensEstimate(listed.tools_bytes) : null }];
    }),
  );
}
