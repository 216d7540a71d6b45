// `next_step` (TOOLS.md conventions): the call a caller would naturally make next, as valid input
// for the named tool (a test feeds each one back into tools/call).
export interface NextStep {
  tool: string;
  args: Record<string, unknown>;
  why: string;
}

export const nextStep = (tool: string, args: Record<string, unknown>, why: string): NextStep => ({ tool, args, why });
