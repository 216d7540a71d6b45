// The kernel domain's tables. Only files in src/kernel/ may import this module.
// `kernel_versions` keeps every version a caller made (improve_kernel starts one, each loop tick
// adds the next); `kernel_heads` holds each caller's latest version number, bumped by one upsert so
// two calls of one caller never take the same number.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface KernelVersionsTable {
  id: string; // kv_...
  subject: string; // metering subject key of the caller
  version: number; // 1, 2, ... per subject
  kind: string; // improve | tick
  listing_id: string | null;
  agent_name: string;
  spec: string; // JSON KernelSpec: what the artifact is built from
  artifact: string; // JSON KernelArtifact
  system_prompt_short: string;
  reason: string;
  diff: string | null; // JSON KernelDiff (ticks)
  created_at: string;
}

export interface KernelHeadsTable {
  subject: string;
  version: number;
  updated_at: string;
}

export type KernelTables = { kernel_versions: KernelVersionsTable; kernel_heads: KernelHeadsTable };

export const kernelTables = (ex: Executor) => typed<KernelTables>(ex);
