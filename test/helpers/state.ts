// Puts a listing into a given state for a test, writing each field through the domain that owns it
// (lane and card facts: listings; probe fields: probe; funnel flags: funnel).
import type { App } from '../../src/app.ts';
import { inTransaction } from '../../src/platform/db/executor.ts';
import { updateListing, type ListingPatch } from '../../src/listings/store.ts';
import { saveProbeState, type ProbeState } from '../../src/probe/store.ts';
import { probeRankPart } from '../../src/probe/apply.ts';
import { setFunnelFlags } from '../../src/funnel/store.ts';
import type { FunnelFlags } from '../../src/funnel/badge.ts';

export type StatePatch = ListingPatch &
  Partial<FunnelFlags extends infer F ? { [K in keyof F]: 0 | 1 } : never> & {
    checks_clean?: 0 | 1;
    probe_ok?: 0 | 1;
    probe_handshake?: string;
    probe_score?: number;
    probed_at?: string;
  };

export async function setListingState(app: App, id: string, patch: StatePatch, now: string): Promise<void> {
  const { demoed, feedbacked, founding_verified, checks_clean, probe_ok, probe_handshake, probe_score, probed_at, ...listing } = patch;
  const probe: Partial<ProbeState> = {
    ...(checks_clean !== undefined ? { checks_clean } : {}),
    ...(probe_ok !== undefined ? { ok: probe_ok } : {}),
    ...(probe_handshake !== undefined ? { handshake: probe_handshake } : {}),
    ...(probe_score !== undefined ? { score: probe_score } : {}),
    ...(probed_at !== undefined ? { probed_at } : {}),
  };
  const funnel = Object.fromEntries(
    Object.entries({ demoed, feedbacked, founding_verified })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, v === 1]),
  );
  await inTransaction(app.services.db.kysely, async (trx) => {
    if (Object.keys(probe).length) await saveProbeState(trx, id, probe);
    await updateListing(trx, id, listing, now, probe_score !== undefined ? probeRankPart(probe_score) : {});
    if (Object.keys(funnel).length) await setFunnelFlags(trx, id, funnel, now);
  });
}
