// The trust score (DESIGN.md "Score"; docs/score-rubric.md says the same in prose). 0-100 from
// what a probe observed; relevance in search is kept apart from it.
import type { ToolParam } from './param-schema.ts';

export interface Capability {
  name: string;
  title?: string;
  description?: string;
  /** A tool's parameters, with what its input schema says a value must be (param-schema.ts). */
  params: ToolParam[];
  tags?: string[];
  /** A tool's input schema as the server serves it (a demo builds its ready call from it). */
  inputSchema?: Record<string, unknown>;
  /** A tool's annotations: its title and behaviour hints, as the server states them. */
  annotations?: ToolAnnotations;
  /** A skill's example requests, as its card states them. */
  examples?: string[];
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ScoreFacts {
  reached: boolean;
  handshake: boolean;
  https: boolean;
  latencyMs: number | null;
  name?: string;
  description?: string;
  version?: string;
  website?: string;
  /** A server card, RFC 9728 metadata or a card provider: something public about who runs it. */
  publicMetadata: boolean;
  capabilities: Capability[];
}

export const RUBRIC = {
  reachability: { max: 15, rule: 'the target answered over HTTP; for a listing, scaled by the share of successful probes among its last 50' },
  handshake: { max: 30, rule: 'a real protocol exchange succeeded (MCP initialize or server/discover + tools/list; A2A card + JSON-RPC endpoint)' },
  completeness: { max: 20, rule: 'name 4, description of 20+ characters 6, version 3, website or documentation 4, server card / provider / resource metadata 3' },
  definitions: { max: 20, rule: 'tools or skills described in 20+ characters (12, by share), parameters documented (8, by share; full when none take parameters)' },
  https: { max: 10, rule: 'answered over https' },
  latency: { max: 5, rule: 'handshake under 300 ms 5, under 1 s 3, under 3 s 1' },
} as const;

export type ScoreBreakdown = Record<keyof typeof RUBRIC, number>;

const described = (text: string | undefined) => (text ?? '').trim().length >= 20;

export function scoreProbe(f: ScoreFacts): { score: number; breakdown: ScoreBreakdown } {
  const caps = f.capabilities;
  const params = caps.flatMap((c) => c.params);
  const definitions = caps.length
    ? 12 * (caps.filter((c) => described(c.description)).length / caps.length) +
      8 * (params.length ? params.filter((p) => (p.description ?? '').trim().length > 0).length / params.length : 1)
    : 0;
  const latency = f.latencyMs === null ? 0 : f.latencyMs < 300 ? 5 : f.latencyMs < 1000 ? 3 : f.latencyMs < 3000 ? 1 : 0;
  const breakdown: ScoreBreakdown = {
    reachability: f.reached ? 15 : 0,
    handshake: f.handshake ? 30 : 0,
    completeness:
      (f.name?.trim() ? 4 : 0) + (described(f.description) ? 6 : 0) + (f.version?.trim() ? 3 : 0) + (f.website ? 4 : 0) + (f.publicMetadata ? 3 : 0),
    definitions: Math.round(definitions),
    https: f.https ? 10 : 0,
    latency,
  };
  const score = Object.values(breakdown).reduce((a, b) => a + b, 0);
  return { score: Math.max(0, Math.min(100, score)), breakdown };
}
