// `rollcall check-catalog [--name <server>]`: checks the catalog's remotes now instead of waiting for
// the schedule (an operator runs it after a first sync): every checkable remote, or those of one
// server's latest version. The checks are the schedule's own (probe/catalog-check.ts): public work
// under each host's budget, fair across hosts; a host whose budget is spent this hour is left for
// the schedule and counted as waiting. Progress on stderr, then a summary by status on stdout.
import { randomUUID } from 'node:crypto';
import { systemClock } from '../platform/clock.ts';
import { openHostBudgets } from '../platform/budget/host-budgets.ts';
import { allCheckKeys, checkStatusCounts, remoteKeysOf } from '../catalog/checks-store.ts';
import { findCatalogEntries } from '../catalog/store.ts';
import { checkRound } from '../probe/catalog-check.ts';
import { createChecker } from '../probe/factory.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';
import { startProgress, type Progress, type ProgressLook } from './progress.ts';
import { EXIT, Failure, failWith, interruptible, type Runner } from './command.ts';

const LOOK: ProgressLook = {
  bar: 'catalog checks |{bar}| {value}/{total} remotes | {live} live, {auth_required} behind a login, {dead} dead, {other} other, {waiting} waiting',
  plain: (done, total, f) => `catalog checks: ${done}/${total} remotes, ${f.live} live, ${f.auth_required} behind a login, ${f.dead} dead, ${f.other} other, ${f.waiting} waiting`,
};

/** Checks run at once by the command (the schedule uses CATALOG_CHECK_CONCURRENCY). */
const CONCURRENCY = 8;

export const run: Runner = async (inv) => {
  const config = loadConfig(inv.io.env);
  const name = inv.values.name === undefined ? undefined : String(inv.values.name);
  const { db } = await openDatabase(config);
  const checker = createChecker(config);
  let progress: Progress | undefined;
  try {
    if (name !== undefined && !(await findCatalogEntries(db.kysely, [name])).length) throw new Failure(`no server named ${JSON.stringify(name)} in the catalog`, 'not_found');
    const keys = name !== undefined ? await remoteKeysOf(db.kysely, name) : await allCheckKeys(db.kysely);
    const deps = { db, clock: systemClock, budgets: openHostBudgets(config, db.kysely, systemClock) };
    const holder = `cli:${randomUUID()}`;
    const tally = { live: 0, auth_required: 0, dead: 0, other: 0, waiting: 0 };
    let done = 0;
    const { value: outcome, interrupted } = await interruptible(async (signal) => {
      progress = keys.length ? startProgress(inv.io.err, LOOK, keys.length, tally) : undefined;
      let checked = 0;
      let waiting = 0;
      // Rounds like the schedule's (a few of one host at a time, each claimed under a lease) until
      // every remote was asked, or none of those left can be claimed (another instance holds them).
      let pending = keys;
      while (pending.length && !signal.aborted) {
        const round = await checkRound(deps, checker, {
          holder,
          concurrency: CONCURRENCY,
          keys: pending.slice(0, 1000),
          limit: 100,
          signal,
          onChecked(_row, status) {
            done++;
            if (status === 'live' || status === 'auth_required' || status === 'dead' || status === 'waiting') tally[status]++;
            else tally.other++;
            progress?.update(done, keys.length, tally);
          },
        });
        checked += round.checked;
        waiting += round.waiting;
        if (!round.claimed) break;
        const asked = new Set(round.done);
        pending = pending.filter((k) => !asked.has(k));
      }
      return { checked, waiting };
    });
    progress?.stop();
    const byStatus = await checkStatusCounts(db.kysely, keys);
    const answer = { ok: true, ...(name !== undefined ? { name } : {}), remotes: keys.length, checked: outcome.checked, waiting: outcome.waiting, by_status: byStatus };
    if (interrupted) return failWith(inv, 'check-catalog', { code: 'interrupted', message: `interrupted after ${outcome.checked} of ${keys.length} remotes; the schedule checks the rest` }, EXIT.interrupted);
    const summary = Object.entries(byStatus)
      .sort((a, b) => b[1] - a[1])
      .map(([status, n]) => `${n} ${status}`)
      .join(', ');
    inv.io.out.write(
      inv.json
        ? `${JSON.stringify(answer)}\n`
        : `checked ${outcome.checked} of ${keys.length} remotes${name !== undefined ? ` of ${name}` : ''}${outcome.waiting ? ` (${outcome.waiting} wait for their host's budget)` : ''}; now: ${summary || 'nothing to check'}\n`,
    );
    return EXIT.ok;
  } finally {
    progress?.stop();
    await checker.close();
    await db.close();
  }
};
