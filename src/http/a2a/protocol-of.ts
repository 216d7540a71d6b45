// Which protocol a POST to /api/a2a speaks. The endpoint answers A2A and MCP (the MCP server card
// lists it as a streamable-http remote), told apart by the JSON-RPC method name: the two protocols
// share no method this server serves (mcp-era.ts isMcpMethod). A method neither one knows stays
// with the A2A door, whose -32601 names what it serves.
import { isMcpMethod } from '../mcp-era.ts';

export type Protocol = 'mcp' | 'a2a' | 'mixed';

const methodOf = (message: unknown): string | undefined => {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const method = (message as { method?: unknown }).method;
  return typeof method === 'string' ? method : undefined;
};

/**
 * One message goes by its method. A batch is MCP's when a message names an MCP method and none
 * names another (its malformed messages get the MCP door's per-message -32600); one that names
 * both is `mixed`, refused whole, so that no part of it runs under the wrong protocol's rules.
 * Any other batch is A2A's, which serves no batches.
 */
export function protocolOf(body: unknown): Protocol {
  if (!Array.isArray(body)) {
    const method = methodOf(body);
    return method !== undefined && isMcpMethod(method) ? 'mcp' : 'a2a';
  }
  const methods = body.map(methodOf).filter((m): m is string => m !== undefined);
  const mcp = methods.filter(isMcpMethod).length;
  if (mcp === 0) return 'a2a';
  return mcp === methods.length ? 'mcp' : 'mixed';
}
