// The playbook's fixed parts (SPEC.md 2.8, 9): its rules ("laws"), what it automates and what it
// never does. What the playbook scores with (traits, gate, sources) is filled in by operations.ts.
import { refill } from '../metering/refills.ts';
import { GATE } from './candidates.ts';

export const PLAYBOOK_VERSION = '1.1.0';
export const PREP_PATH = '/api/products/connectors/daily/prep';
export const DAILY_PATH = '/api/products/connectors/daily';

export const laws = (repeatDays: number): string[] => [
  'At most one connector first touch per UTC day.',
  'The operator sends the draft by hand; Rollcall never sends anything to anyone.',
  'Outbound messages carry two links only: the demo link and one more.',
  `Below the quality gate (hirey_likeness ${GATE.min_hirey_likeness}, live score ${GATE.min_live_score}) the day is a research day: no draft.`,
  `A partner picked in the last ${repeatDays} days is not picked again.`,
  'Nothing is promised in exchange: no listing, rank, badge or seat.',
];

export const DO_NOT_SEND = [
  'Do not send more than this one first touch today.',
  'Do not add links: the draft carries exactly two, the demo link and one more.',
  'Do not let a tool or a script send it: the operator sends it by hand.',
  'Do not promise a listing, rank, badge or seat in exchange.',
];

export const DO_NOT_RESEARCH = [
  'Do not send a first touch today: the pick is below the quality gate.',
  'Do not lower the gate to make a pick: improve the partners file or wait for stronger Live listings.',
];

export const STEPS = [
  'Rollcall picks one partner per UTC day: the best candidate not picked recently that passes the quality gate (else a research day).',
  'The operator reads the pick and its draft here.',
  `The operator prepares it (POST ${PREP_PATH}, Authorization: Bearer <ADMIN_TOKEN>): it is marked prepared and a listed partner gets the connector_onboard refill and a note in its talk inbox.`,
  'The operator sends the draft from their own mailbox; Rollcall never sends.',
];

export function automation(base: string, prepEnabled: boolean, nextPickAt: string) {
  const r = refill('connector_onboard');
  return {
    picks: 'automatic: the first request of each UTC day picks and stores it for every instance',
    next_pick_at: nextPickAt,
    sends: false,
    sender: 'the operator, by hand',
    prep: { method: 'POST', url: `${base}${PREP_PATH}`, auth: 'Authorization: Bearer <ADMIN_TOKEN>', enabled: prepEnabled },
    refill: { action: r.action, events: [...r.events], max_per_day: r.max_per_day, to: 'the partner listing, when the operator prepares its pick' },
  };
}
