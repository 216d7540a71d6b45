// Kernel versions' SQL. The next version number comes from one upsert on kernel_heads
// (INSERT ... ON CONFLICT DO UPDATE ... RETURNING), which holds the head row until commit, so
// concurrent improve_kernel and run_loop_tick calls of one caller number their versions apart.
// A call that builds on the latest version locks the head first (`lockHead`), so it reads the
// version the other call just stored instead of building beside it.
import { sql } from 'kysely';
import { takesRowLocks, type Executor } from '../platform/db/executor.ts';
import { newId } from '../platform/ids.ts';
import { kernelTables as q, type KernelVersionsTable } from './tables.ts';
import type { KernelArtifact, KernelSpec } from './build.ts';
import type { StoredDiff } from './diff.ts';

export interface KernelVersion {
  id: string;
  subject: string;
  version: number;
  kind: 'improve' | 'tick';
  listing_id: string | null;
  agent_name: string;
  spec: KernelSpec;
  artifact: KernelArtifact;
  reason: string;
  diff: StoredDiff | null;
  created_at: string;
}

const version = (r: KernelVersionsTable): KernelVersion => ({
  id: r.id,
  subject: r.subject,
  version: Number(r.version),
  kind: r.kind as KernelVersion['kind'],
  listing_id: r.listing_id,
  agent_name: r.agent_name,
  spec: JSON.parse(r.spec) as KernelSpec,
  artifact: JSON.parse(r.artifact) as KernelArtifact,
  reason: r.reason,
  diff: r.diff === null ? null : (JSON.parse(r.diff) as StoredDiff),
  created_at: r.created_at,
});

export async function saveVersion(trx: Executor, v: Omit<KernelVersion, 'id' | 'version'>): Promise<KernelVersion> {
  const head = await q(trx)
    .insertInto('kernel_heads')
    .values({ subject: v.subject, version: 1, updated_at: v.created_at })
    .onConflict((oc) => oc.column('subject').doUpdateSet({ version: sql<number>`kernel_heads.version + 1`, updated_at: v.created_at }))
    .returning('version')
    .executeTakeFirstOrThrow();
  const row: KernelVersionsTable = {
    id: newId('kv'),
    subject: v.subject,
    version: Number(head.version),
    kind: v.kind,
    listing_id: v.listing_id,
    agent_name: v.agent_name,
    spec: JSON.stringify(v.spec),
    artifact: JSON.stringify(v.artifact),
    system_prompt_short: v.artifact.system_prompt_short,
    reason: v.reason,
    diff: v.diff === null ? null : JSON.stringify(v.diff),
    created_at: v.created_at,
  };
  await q(trx).insertInto('kernel_versions').values(row).execute();
  return version(row);
}

/**
 * Holds a caller's head row until the transaction ends (PostgreSQL; a SQLite transaction is
 * already alone), so two calls building on the caller's latest version take turns.
 */
export async function lockHead(trx: Executor, subject: string): Promise<void> {
  if (!takesRowLocks(trx)) return;
  await q(trx).selectFrom('kernel_heads').select('version').where('subject', '=', subject).forUpdate().execute();
}

/** A caller's latest kernel version (of the kernels built for one listing, when `listingId` is given), if any. */
export async function latestVersion(ex: Executor, subject: string, listingId?: string): Promise<KernelVersion | undefined> {
  let sel = q(ex).selectFrom('kernel_versions').selectAll().where('subject', '=', subject);
  if (listingId !== undefined) sel = sel.where('listing_id', '=', listingId);
  const row = await sel.orderBy('version', 'desc').limit(1).executeTakeFirst();
  return row ? version(row) : undefined;
}

/** A caller's versions, newest first (history reads: get_agent_runs). */
export async function versionsOf(ex: Executor, subject: string, limit: number): Promise<Omit<KernelVersion, 'spec' | 'artifact'>[]> {
  const rows = await q(ex)
    .selectFrom('kernel_versions')
    .select(['id', 'subject', 'version', 'kind', 'listing_id', 'agent_name', 'reason', 'diff', 'created_at'])
    .where('subject', '=', subject)
    .orderBy('version', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, subject: r.subject, version: Number(r.version), kind: r.kind as KernelVersion['kind'], listing_id: r.listing_id, agent_name: r.agent_name, reason: r.reason, diff: r.diff === null ? null : (JSON.parse(r.diff) as StoredDiff), created_at: r.created_at }));
}
