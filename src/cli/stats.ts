// `rollcall stats`: the registry's counts (src/registry/stats.ts) from the configured database.
import { loadConfig } from '../config.ts';
import { systemClock } from '../platform/clock.ts';
import { registryStats, type RegistryStats } from '../registry/stats.ts';
import { openDatabase } from './database.ts';
import { EXIT, emit, type Runner } from './command.ts';

const lanes = (k: RegistryStats['listings']['by_kind']['mcp']) =>
  `${k.total} (active ${k.active}, queued ${k.queued}, probing ${k.probing}, failed ${k.failed}, dormant ${k.dormant})`;

function describe(s: RegistryStats): string {
  const l = s.listings;
  const jobKinds = Object.entries(s.jobs.by_kind).map(([kind, j]) => `  ${kind.padEnd(13)} ${j.due} due, ${j.running} running${j.oldest_due_at ? `, oldest due ${j.oldest_due_at}` : ''}`);
  return [
    `listings      ${l.total} total, ${l.live} live`,
    `  mcp         ${lanes(l.by_kind.mcp)}`,
    `  agent       ${lanes(l.by_kind.agent)}`,
    `  probed ${l.probed}, checks clean ${l.checks_clean}, founding verified ${l.founding_verified}, identity bound ${l.identity_bound}`,
    `catalog       ${s.catalog.servers} servers (${s.catalog.versions} versions)`,
    `jobs          ${s.jobs.due} due, ${s.jobs.running} running`,
    ...jobKinds,
    `search        ${s.search.queries_today} queries today (UTC, since ${s.search.since})`,
    `signing keys  ${s.signing_keys.published} published${s.signing_keys.signing ? `, signing with ${s.signing_keys.signing}` : ''}`,
  ].join('\n');
}

export const run: Runner = async (inv) => {
  const { db } = await openDatabase(loadConfig(inv.io.env));
  try {
    const stats = await registryStats(db.kysely, systemClock.now());
    emit(inv, stats, () => describe(stats));
    return EXIT.ok;
  } finally {
    await db.close();
  }
};
