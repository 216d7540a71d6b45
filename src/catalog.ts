// The operation catalog: every operation the doors may call. A new capability plugs in by being
// added here (and, when SPEC.md gives it a route, to the REST table).
import type { Operation } from './platform/operation.ts';
import { publish, checkStatus } from './listings/operations.ts';
import { listActiveListings } from './listings/active.ts';
import { capabilityHash } from './listings/capabilities.ts';
import { talkCheckIn } from './talk/operations.ts';
import { probeClean, checkLiveness, freeScore, scoreRubric } from './probe/operations.ts';

export const operations: Operation<any, any>[] = [
  publish,
  checkStatus,
  listActiveListings,
  capabilityHash,
  talkCheckIn,
  probeClean,
  checkLiveness,
  freeScore,
  scoreRubric,
];
