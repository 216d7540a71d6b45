// The messages between the service and its probe or check thread (off-thread.ts, probe-thread.ts).
import type { Config } from '../config.ts';
import type { Liveness, ProbePhase, ProbeReport } from './prober.ts';
import type { CheckFindings } from '../catalog/checks-store.ts';
import type { SigningIdentity } from '../platform/net/web-bot-auth.ts';

/** What the thread builds its prober from (its workerData). */
export interface ThreadSetup {
  config: Config;
  /** The thread's work: listing probes (and check_liveness), or the catalog's checks (factory.ts). */
  role: 'probe' | 'check';
  /** The only host names the thread may resolve (a test seam); unset: the system resolver. */
  hosts?: Record<string, string[]>;
}

/** `admit`: each request of the work asks the service first (its host budget); a check's always do. */
export type ToThread =
  | { type: 'probe'; id: number; url: string; hint?: 'agent' | 'mcp'; ask: boolean; admit: boolean }
  | { type: 'liveness'; id: number; url: string; kind: 'agent' | 'mcp'; admit: boolean }
  | { type: 'check'; id: number; url: string; transport: string }
  | { type: 'abort'; id: number }
  | { type: 'sign'; identity: SigningIdentity | undefined }
  | { type: 'answer'; question: number; owner: string | undefined; failed?: string }
  | { type: 'admitted'; question: number; refused?: string };

/** `fetches`: the thread's fetches since its previous message, whichever work made them. */
export type FromThread =
  | { type: 'ready' }
  | { type: 'done'; id: number; report: ProbeReport; phases: [ProbePhase, number][]; fetches: number }
  | { type: 'alive'; id: number; result: Liveness; fetches: number }
  | { type: 'checked'; id: number; findings: CheckFindings | null; fetches: number }
  | { type: 'failed'; id: number; message: string; fetches: number }
  | { type: 'ask'; id: number; question: number; url: string }
  | { type: 'admit'; id: number; question: number; host: string };
