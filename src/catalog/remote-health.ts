// Pure rules of the catalog's health checks: which remotes of a server.json can be checked, when a
// remote is checked next, and what changed between two checks.
import { DAY_MS, HOUR_MS } from '../platform/clock.ts';
import { remoteKey } from './store.ts';
import type { RemoteStatus } from './tables.ts';

/** A remote of a server.json as the checks see it. */
export interface RemoteOfEntry {
  url: string;
  type: 'streamable-http' | 'sse';
  /** The lookup key its checks are stored under; undefined when it cannot be checked. */
  key?: string;
  /** Why it cannot be checked: a URL template, or headers the client must supply. */
  notCheckable?: 'url_template' | 'required_headers';
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The remotes of a server.json; stdio-only entries have none (`not_remote`). */
export function remotesOf(server: Json): RemoteOfEntry[] {
  const remotes = Array.isArray(server.remotes) ? server.remotes.filter(isObject) : [];
  return remotes
    .filter((r) => typeof r.url === 'string' && (r.type === 'streamable-http' || r.type === 'sse'))
    .map((r) => {
      const url = r.url as string;
      const type = r.type as RemoteOfEntry['type'];
      if (/[{}]/.test(url)) return { url, type, notCheckable: 'url_template' as const };
      const headers = Array.isArray(r.headers) ? r.headers.filter(isObject) : [];
      if (headers.some((h) => h.isRequired === true)) return { url, type, notCheckable: 'required_headers' as const };
      const key = remoteKey(url);
      return key ? { url, type, key } : { url, type, notCheckable: 'url_template' as const };
    });
}

/** Live (or alive behind a login) remotes are checked daily. */
export const LIVE_EVERY_MS = DAY_MS;
/** A failing remote is checked again after 1 h, 6 h, then daily; once failing for 7 days, weekly. */
const FAILING_STEPS_MS = [HOUR_MS, 6 * HOUR_MS, DAY_MS];
export const FAILING_WEEKLY_AFTER_MS = 7 * DAY_MS;

export const isUp = (status: RemoteStatus) => status === 'live' || status === 'auth_required';

/** When a remote is checked next, given this check's status and how long it has been failing. */
export function nextCheckAt(now: Date, status: RemoteStatus, failStreak: number, failingSince: string | null): Date {
  if (isUp(status)) return new Date(now.getTime() + LIVE_EVERY_MS);
  const failingFor = failingSince ? now.getTime() - new Date(failingSince).getTime() : 0;
  if (failingFor >= FAILING_WEEKLY_AFTER_MS) return new Date(now.getTime() + 7 * DAY_MS);
  const step = FAILING_STEPS_MS[Math.min(Math.max(failStreak, 1), FAILING_STEPS_MS.length) - 1]!;
  return new Date(now.getTime() + step);
}

export interface CheckChanges {
  tools_added?: string[];
  tools_removed?: string[];
  version?: { from: string | null; to: string | null };
}

/** What changed between the last live check and this one (tool names, server version); undefined when nothing did. */
export function changesBetween(before: { tools: string[] | null; version: string | null }, after: { tools: string[] | null; version: string | null }): CheckChanges | undefined {
  if (!before.tools || !after.tools) return undefined;
  const had = new Set(before.tools);
  const has = new Set(after.tools);
  const added = after.tools.filter((t) => !had.has(t));
  const removed = before.tools.filter((t) => !has.has(t));
  const out: CheckChanges = {};
  if (added.length) out.tools_added = added;
  if (removed.length) out.tools_removed = removed;
  if (before.version !== after.version) out.version = { from: before.version, to: after.version };
  return Object.keys(out).length ? out : undefined;
}
