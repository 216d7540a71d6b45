// The mesh domain's tables: stored compositions (mesh_compose) and who takes part in each, so
// composition edges, a listing's compositions and its composed peers are plain indexed reads.
// Only src/mesh/ may import this module.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface CompositionsTable {
  id: string; // cmp_...
  owner: string; // metering subject key of the caller that composed it
  listing_id: string | null; // the listing it was composed for (the caller's own), if named
  goal: string | null; // untrusted text, cleaned and capped
  capabilities: string; // JSON string[]: what the plan covers, in the caller's order
  steps: string; // JSON: the planned steps (partner, capabilities, calls)
  gaps: string; // JSON string[]: capabilities no Live partner covers
  created_at: string;
}

/** One row per listing in a composition: the owner listing (step 0) and each partner (step 1..n). */
export interface CompositionMembersTable {
  composition_id: string;
  listing_id: string;
  role: string; // owner | partner
  step: number; // 0 for the owner, else the partner's step number
  created_at: string;
}

export type MeshTables = { compositions: CompositionsTable; composition_members: CompositionMembersTable };

export const meshTables = (ex: Executor) => typed<MeshTables>(ex);
