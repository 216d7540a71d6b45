// `next_step` (TOOLS.md conventions): the call a caller would naturally make next, as valid input
// for the named tool (a test feeds each one back into tools/call).
export interface NextStep {
  tool: string;
  args: Record<string, unknown>;
  why: string;
  /**
   * What the caller adds itself before the call is valid: `owner_token` (sent as Authorization:
   * Bearer rco_...) or the names of fields only it can write (a feedback body, a goal).
   */
  needs?: string[];
}

/** Tools that act for a listing (an operation's `ownerOnly`), told by the assembly once at start. */
const ownerTools = new Set<string>();

export function registerOwnerTools(names: Iterable<string>): void {
  for (const name of names) ownerTools.add(name);
}

/** A next_step; one naming a tool that acts for a listing lists `owner_token` in `needs` by itself. */
export function nextStep(tool: string, args: Record<string, unknown>, why: string, needs: string[] = []): NextStep {
  const all = ownerTools.has(tool) && !needs.includes('owner_token') ? [...needs, 'owner_token'] : needs;
  return { tool, args, why, ...(all.length ? { needs: all } : {}) };
}
