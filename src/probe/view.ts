// The probe's part of the listing view (SPEC.md 2.1): `checks_clean` and the `probe` object, with
// what an MCP server's tool list costs an agent's context as its last full probe measured it, and
// whether an agent's card is signed and its signature holds (`card_signature`).
import type { ListingRow } from '../listings/store.ts';
import type { ListingViewPart } from '../listings/view-part.ts';
import { hoursBetween } from '../platform/clock.ts';
import { cardSignatureOf, contextCostOf, loadProbeStates, type ProbeState } from './store.ts';

export function probeFields(row: ListingRow, state: ProbeState | undefined, now: Date) {
  const probedAt = state?.probed_at ?? null;
  return {
    checks_clean: state?.checks_clean === 1,
    probe: {
      ok: state?.ok === 1,
      handshake: state?.handshake ?? 'pending',
      score: state?.score ?? null,
      probed_at: probedAt,
      target: state?.target ?? row.url,
      age_hours: probedAt ? Math.round(hoursBetween(probedAt, now) * 100) / 100 : null,
      context_cost: contextCostOf(state?.report ?? null),
      card_signature: row.kind === 'agent' ? cardSignatureOf(state?.report ?? null) : null,
    },
  };
}

export const probeViewPart: ListingViewPart<ProbeState, ReturnType<typeof probeFields>> = {
  load: loadProbeStates,
  fields: (row, state, v) => probeFields(row, state, v.now),
};
