// What a trace is about: a listing, a capability, or a pair of listings (unordered: an edge).
export type TraceSubject =
  | { kind: 'listing'; listing_id: string }
  | { kind: 'capability'; capability: string }
  | { kind: 'pair'; listing_id: string; partner_listing_id: string };

/** Capabilities compare lower-cased and trimmed (as capability_hash does). */
export const normalizeCapability = (c: string): string => c.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 200);

export interface SubjectKey {
  key: string;
  kind: TraceSubject['kind'];
  a: string;
  b: string | null;
}

export function subjectKey(s: TraceSubject): SubjectKey {
  switch (s.kind) {
    case 'listing':
      return { key: `listing:${s.listing_id}`, kind: 'listing', a: s.listing_id, b: null };
    case 'capability': {
      const c = normalizeCapability(s.capability);
      return { key: `cap:${c}`, kind: 'capability', a: c, b: null };
    }
    case 'pair': {
      const [a, b] = [s.listing_id, s.partner_listing_id].sort() as [string, string];
      return { key: `pair:${a}|${b}`, kind: 'pair', a, b };
    }
  }
}
