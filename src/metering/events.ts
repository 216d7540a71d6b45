// The metered event catalog (SPEC.md 2.6 and 8.1): each value event's free daily allowance and
// its price beyond it. `feedback_driven` is false for every entry (SPEC.md 8.1); always-free
// events are never charged nor offered x402, but past their allowance they too wait for a refill
// or the UTC day's reset (DESIGN.md "Always-free events").
export interface MeteredEvent {
  event_id: EventId;
  product: string;
  unit: string;
  title: string;
  description: string;
  free_per_day: number;
  price_usd: number;
  price_cents: number;
  base_price_cents: number;
  feedback_driven: boolean;
  always_free: boolean;
}

export const EVENT_IDS = [
  'improve_kernel',
  'run_loop_tick',
  'mesh_match',
  'mesh_compose',
  'network_sense',
  'collab_session_open',
  'collab_session_step',
  'collab_converge',
  'collab_package',
  'collab_publish',
  'collab_talk',
] as const;

export type EventId = (typeof EVENT_IDS)[number];

const event = (event_id: EventId, product: string, unit: string, free_per_day: number, price_cents: number, always_free: boolean, title: string, description: string): MeteredEvent => ({
  event_id,
  product,
  unit,
  title,
  description,
  free_per_day,
  price_usd: price_cents / 100,
  price_cents,
  base_price_cents: price_cents,
  feedback_driven: false,
  always_free,
});

export const EVENTS: readonly MeteredEvent[] = [
  event('improve_kernel', 'kernel', 'run', 3, 25, false, 'Kernel run', 'improve_kernel: a kernel artifact and a system prompt of at most 600 characters.'),
  event('run_loop_tick', 'recursive', 'tick', 3, 25, false, 'Loop tick', 'run_loop_tick: one improvement cycle over your latest kernel.'),
  event('mesh_match', 'mcp_mesh', 'match', 5, 10, false, 'Mesh match', 'mesh_match: ranked partner listings for the capabilities you need.'),
  event('mesh_compose', 'mcp_mesh', 'compose', 2, 20, false, 'Mesh compose', 'mesh_compose: a stored composition plan over Live partners.'),
  event('network_sense', 'network', 'sense', 10, 2, true, 'Network sense', 'network_sense: the trace field around a listing, a capability or the network.'),
  event('collab_session_open', 'collab', 'session', 2, 15, false, 'Collab session', 'collab_session_open: a collaboration session with invited partners.'),
  event('collab_session_step', 'collab', 'step', 12, 5, false, 'Collab step', 'A claimed step of a collaboration session.'),
  event('collab_converge', 'collab', 'compose', 2, 30, false, 'Collab converge', 'Converging a session\'s results when it closes.'),
  event('collab_package', 'collab', 'pack', 1, 50, false, 'Collab package', 'Packaging a closed session into a product draft.'),
  event('collab_publish', 'collab', 'pack', 1, 25, false, 'Collab publish', 'Publishing a packaged product to the collab market.'),
  event('collab_talk', 'collab', 'message', 30, 2, true, 'Collab message', 'collab_session_message: a message to a session.'),
];

const byId = new Map(EVENTS.map((e) => [e.event_id, e]));

export function meteredEvent(id: EventId): MeteredEvent {
  return byId.get(id)!;
}

export const isEventId = (id: string): id is EventId => byId.has(id as EventId);

/** The value tools whose use makes a later deposit_outcome honest (SPEC.md 8.2 "after value tools"). */
export const VALUE_EVENTS: readonly EventId[] = ['improve_kernel', 'run_loop_tick', 'mesh_match', 'mesh_compose', 'network_sense'];
