// Network-wide reads of kernel versions for the read surfaces (improvement log, learning,
// dogfood). They never return a caller's goals, card text, prompt or name: only what changed
// (part ids and counts), why (the reason, made of check ids and labels), and the themes applied.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import type { ThemeId } from '../feedback/themes.ts';
import { kernelTables as q } from './tables.ts';
import type { KernelSpec } from './build.ts';
import type { StoredDiff } from './diff.ts';

export interface KernelTotals {
  versions: number;
  improves: number;
  ticks: number;
  callers: number;
  listings: number;
  last_at: string | null;
}

export async function kernelTotals(ex: Executor): Promise<KernelTotals> {
  const r = await q(ex)
    .selectFrom('kernel_versions')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>(sql<number>`case when kind = 'tick' then 1 else 0 end`).as('ticks'),
      eb.fn.count<number>('subject').distinct().as('callers'),
      eb.fn.count<number>('listing_id').distinct().as('listings'),
      eb.fn.max('created_at').as('last_at'),
    ])
    .executeTakeFirstOrThrow();
  const n = Number(r.n);
  const ticks = Number(r.ticks ?? 0);
  return { versions: n, improves: n - ticks, ticks, callers: Number(r.callers), listings: Number(r.listings), last_at: (r.last_at as string | null) ?? null };
}

export interface LogEntry {
  id: string;
  kind: 'improve' | 'tick';
  version: number;
  listing_id: string | null;
  created_at: string;
  reason: string;
  themes: { theme: ThemeId; source: string }[];
  /** Part ids only: texts can carry a caller's goals. */
  changed: { added: string[]; removed: string[]; reworded: string[]; goals_reordered: boolean; prompt_chars: { from: number; to: number } | null } | null;
}

/** A tick's diff as stored by an older version may carry a goal order and the prompt's texts. */
const changedOf = (d: StoredDiff | null): LogEntry['changed'] =>
  d === null
    ? null
    : {
        added: d.added.map((x) => x.id),
        removed: d.removed.map((x) => x.id),
        reworded: d.changed.filter((x) => x.part !== 'objective').map((x) => x.id),
        goals_reordered: (d.goal_order ?? null) !== null,
        prompt_chars: d.prompt_chars ?? d.system_prompt_short?.chars ?? null,
      };

/** The latest kernel versions network-wide, newest first. */
export async function versionLog(ex: Executor, limit: number, kind?: 'improve' | 'tick'): Promise<LogEntry[]> {
  let query = q(ex).selectFrom('kernel_versions').select(['id', 'kind', 'version', 'listing_id', 'created_at', 'reason', 'diff', 'spec']);
  if (kind) query = query.where('kind', '=', kind);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as LogEntry['kind'],
    version: Number(r.version),
    listing_id: r.listing_id,
    created_at: r.created_at,
    reason: r.reason,
    themes: (JSON.parse(r.spec) as KernelSpec).themes.map((t) => ({ theme: t.theme, source: t.source })),
    changed: changedOf(r.diff === null ? null : (JSON.parse(r.diff) as StoredDiff)),
  }));
}

/** How many of the latest `window` versions applied each theme, by where it came from. */
export async function themeApplications(ex: Executor, window: number): Promise<Map<ThemeId, { versions: number; from_community: number; from_own_feedback: number; from_loop: number }>> {
  const rows = await q(ex).selectFrom('kernel_versions').select('spec').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(window).execute();
  const out = new Map<ThemeId, { versions: number; from_community: number; from_own_feedback: number; from_loop: number }>();
  for (const r of rows) {
    for (const t of (JSON.parse(r.spec) as KernelSpec).themes) {
      const e = out.get(t.theme) ?? { versions: 0, from_community: 0, from_own_feedback: 0, from_loop: 0 };
      e.versions++;
      if (t.source === 'community') e.from_community++;
      else if (t.source === 'your_feedback') e.from_own_feedback++;
      else e.from_loop++;
      out.set(t.theme, e);
    }
  }
  return out;
}

/** Kernel versions per UTC day since a day, by kind. */
export async function dailyVersions(ex: Executor, sinceDay: string): Promise<{ day: string; improves: number; ticks: number }[]> {
  const rows = await q(ex)
    .selectFrom('kernel_versions')
    .select((eb) => [sql<string>`substr(created_at, 1, 10)`.as('day'), 'kind', eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', sinceDay)
    .groupBy([sql`substr(created_at, 1, 10)`, 'kind'])
    .execute();
  const days = new Map<string, { day: string; improves: number; ticks: number }>();
  for (const r of rows) {
    const d = days.get(r.day) ?? { day: r.day, improves: 0, ticks: 0 };
    if (r.kind === 'tick') d.ticks += Number(r.n);
    else d.improves += Number(r.n);
    days.set(r.day, d);
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}
