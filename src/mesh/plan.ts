// Planning a composition (pure): greedy set cover over the partners, then the call each step
// makes. Greedy: take the partner that covers the most still-uncovered capabilities; ties go to
// the stronger trail, then the higher probe score, then the smaller id (deterministic). Greedy
// set cover is within ln(n)+1 of the fewest partners and exact for the small sets asked here
// in practice (n <= 10 capabilities).
import type { CompositionStep, PlannedCall } from './store.ts';
import type { Partner } from './partners.ts';

export interface CoverPick<P> {
  partner: P;
  covers: string[];
}

interface Coverable {
  id: string;
  covers: ReadonlySet<string>;
  trail: number;
  probe_score: number | null;
}

/** Orders two partners that cover equally many: trail strength, probe score, id. */
export function tieOrder(a: Coverable, b: Coverable): number {
  return b.trail - a.trail || (b.probe_score ?? -1) - (a.probe_score ?? -1) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Greedy set cover of `universe` (kept in its order inside each pick); what nobody covers are the gaps. */
export function greedyCover<P extends Coverable>(universe: readonly string[], partners: readonly P[]): { picks: CoverPick<P>[]; gaps: string[] } {
  const left = new Set(universe);
  const picks: CoverPick<P>[] = [];
  const pool = [...partners];
  while (left.size > 0) {
    let best: P | undefined;
    let bestCount = 0;
    for (const p of pool) {
      let n = 0;
      for (const c of p.covers) if (left.has(c)) n++;
      if (n > bestCount || (n === bestCount && n > 0 && best && tieOrder(p, best) < 0)) {
        best = p;
        bestCount = n;
      }
    }
    if (!best) break;
    const covers = universe.filter((c) => left.has(c) && best.covers.has(c));
    for (const c of covers) left.delete(c);
    picks.push({ partner: best, covers });
    pool.splice(pool.indexOf(best), 1);
  }
  return { picks, gaps: universe.filter((c) => left.has(c)) };
}

/** A placeholder for a required argument the caller fills in. */
const placeholder = (name: string) => `<${name}>`;

/**
 * The calls one step makes. An MCP partner: one `tools/call` per distinct tool that covers the
 * step's capabilities, with its required parameters as placeholders. An agent: one A2A
 * `message/send` whose text names the skills and quotes the goal as data.
 */
export function plannedCalls(p: Partner, covers: readonly string[], goal: string | null, ref: string): PlannedCall[] {
  if (p.row.kind === 'mcp') {
    const seen = new Set<string>();
    const calls: PlannedCall[] = [];
    for (const c of covers) {
      const item = p.covered.get(c)!.item;
      if (seen.has(item.name)) continue;
      seen.add(item.name);
      const required = item.params.filter((x) => x.required);
      calls.push({
        protocol: 'mcp',
        endpoint: p.endpoint,
        method: 'tools/call',
        capability: c,
        params: { name: item.name, arguments: Object.fromEntries(required.map((x) => [x.name, placeholder(x.name)])) },
        parameters: item.params,
      });
    }
    return calls;
  }
  const skills = [...new Set(covers.map((c) => p.covered.get(c)!.item.name))];
  // The goal is the caller's text: quoted as data (JSON), never spliced in as an instruction.
  const text = `Request ${ref} via Rollcall: please use your skill${skills.length > 1 ? 's' : ''} ${skills.map((s) => JSON.stringify(s)).join(', ')} for ${covers.map((c) => JSON.stringify(c)).join(', ')}.${goal ? ` The requester's goal, quoted: ${JSON.stringify(goal)}` : ''}`;
  return [
    {
      protocol: 'a2a',
      endpoint: p.endpoint,
      method: 'message/send',
      capability: covers.join(', '),
      params: { message: { role: 'user', messageId: ref, parts: [{ kind: 'text', text }], metadata: { skills, capabilities: covers } } },
    },
  ];
}

/** The stored steps of a plan, in pick order. */
export function planSteps(picks: readonly CoverPick<Partner & Coverable>[], goal: string | null, compositionId: string): CompositionStep[] {
  return picks.map(({ partner: p, covers }, i) => ({
    step: i + 1,
    listing_id: p.row.id,
    kind: p.row.kind,
    name: p.row.name,
    endpoint: p.endpoint,
    covers,
    calls: plannedCalls(p, covers, goal, `${compositionId}-${i + 1}`),
    trail_strength: round(p.trail),
    probe_score: p.probe_score,
  }));
}

export const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
