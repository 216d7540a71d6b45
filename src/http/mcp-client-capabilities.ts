// What an MCP client declared it can do, against what a request needs of it (2026-07-28: the
// client declares its capabilities in every request's `_meta`). A server must not rely on a
// capability the client did not declare: a tool that needs one is refused with
// MissingRequiredClientCapability (-32021, HTTP 400), whose `data.requiredCapabilities` is a
// ClientCapabilities object of exactly what is missing. A tool that asks the client for input
// inside its result (an InputRequiredResult) names the capability that input needs, so the same
// check covers it.
import type { ClientCapabilities } from '../platform/operation.ts';

export const MISSING_CLIENT_CAPABILITY = -32021;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The part of `required` that `declared` lacks, or undefined when nothing is missing. A capability
 * counts as declared when its key is present; a required member (`elicitation: { url: {} }`) must
 * be present under it too, except that a bare `elicitation: {}` (no mode named) declares the form
 * mode, its meaning before modes existed. Nothing declared (a legacy request, whose capabilities
 * this stateless server never keeps) lacks everything.
 */
export function missingCapabilities(required: ClientCapabilities, declared: unknown): ClientCapabilities | undefined {
  const missing: ClientCapabilities = {};
  for (const [name, members] of Object.entries(required)) {
    const has = isObject(declared) ? declared[name] : undefined;
    if (!isObject(has)) {
      missing[name] = members;
      continue;
    }
    const bareElicitation = name === 'elicitation' && has.form === undefined && has.url === undefined;
    const lacking = Object.entries(members).filter(([member]) => has[member] === undefined && !(bareElicitation && member === 'form'));
    if (lacking.length > 0) missing[name] = Object.fromEntries(lacking);
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}

/** The -32021 error for what is missing. */
export function missingCapabilityError(missing: ClientCapabilities, what: string): { code: number; message: string; data: { requiredCapabilities: ClientCapabilities } } {
  const names = Object.keys(missing).join(', ');
  return {
    code: MISSING_CLIENT_CAPABILITY,
    message: `Missing required client capability: ${what} needs ${names}, which the request's io.modelcontextprotocol/clientCapabilities does not declare`,
    data: { requiredCapabilities: missing },
  };
}
