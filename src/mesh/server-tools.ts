// A server's own tools as capabilities: what take_demo's mcp_mesh demo matches partners for. Every
// tool counts, up to MAX_SERVER_TOOLS (each is one search among the Live listings, run while the
// demo holds its listing's row); a tool left out is named with the reason, never dropped silently.
import type { ListingRow } from '../listings/store.ts';
import { queryProblem } from '../search/engine.ts';
import { canonicalCapability, storedItems } from './coverage.ts';

/** Tools of one server a demo matches partners for. */
export const MAX_SERVER_TOOLS = 100;

export interface ServerTools {
  /** Its tools as capabilities, in the server's order, one per distinct name. */
  capabilities: string[];
  left_out: { tool: string; why: string }[];
}

export function serverTools(row: Pick<ListingRow, 'capabilities'>): ServerTools {
  const capabilities: string[] = [];
  const left_out: ServerTools['left_out'] = [];
  for (const item of storedItems(row.capabilities)) {
    const capability = canonicalCapability(item.name);
    const problem = capability === '' ? 'its name is empty once cleaned' : queryProblem(capability);
    if (problem) left_out.push({ tool: item.name, why: `its name reads as no capability: ${problem}` });
    else if (capabilities.includes(capability)) continue;
    else if (capabilities.length >= MAX_SERVER_TOOLS) left_out.push({ tool: item.name, why: `a demo matches the first ${MAX_SERVER_TOOLS} tools` });
    else capabilities.push(capability);
  }
  return { capabilities, left_out };
}
