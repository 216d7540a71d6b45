// The owners domain's runtime: how DNS proofs of control are looked up (the configured resolvers).
// Operations that verify proofs type their ctx as OwnersCtx.
import type { Ctx } from '../platform/operation.ts';
import type { TxtLookup } from '../platform/net/txt.ts';

export interface OwnersRuntime {
  txt: TxtLookup;
}

export type OwnersCtx = Ctx & { owners: OwnersRuntime };
