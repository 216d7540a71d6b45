// What an MCP server's tool list costs an agent's context: the tools, the list's bytes as served,
// and tokens estimated as bytes / 4 (the usual rule of thumb for English text and JSON; an
// estimate, named as one wherever it is shown). One shape for a catalog remote's check and a Live
// listing's probe alike.

export interface ContextCost {
  count: number;
  bytes: number | null;
  tokens_estimate: number | null;
  /** The list ran past the body limit: bytes are that limit, tools those read before it. */
  truncated: boolean;
}

export const tokensEstimate = (bytes: number | null) => (bytes === null ? null : Math.ceil(bytes / 4));

export const contextCost = (count: number, bytes: number | null, truncated: boolean): ContextCost => ({ count, bytes, tokens_estimate: tokensEstimate(bytes), truncated });
