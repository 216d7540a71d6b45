// Toolsets: the MCP tools in groups an agent connects to one at a time, each at its own endpoint
// (`/api/mcp/<toolset>`, a complete MCP server for both eras), so a client puts only the tools it
// needs in its model's context. `/api/mcp` still serves every tool (SPEC.md). Every tool belongs
// to exactly one toolset (a test holds the table to the catalog): a tool added later goes where
// its purpose says. `find_tools` is served everywhere and says which tool, at which endpoint,
// serves a need.
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { z } from 'zod';
import { defineOperation, type AnyOperation } from '../platform/operation.ts';

export const TOOLSETS = {
  registry: ['ard_search', 'search_active', 'match_capability', 'list_yourself', 'check_status', 'get_listing_status', 'capability_hash', 'probe_clean', 'check_liveness', 'join_and_contribute', 'claim_listing', 'verify_claim'],
  funnel: ['take_demo', 'leave_feedback', 'complete_founding_path', 'get_founding_deal', 'co_sign_founding', 'get_co_sign_pairs', 'install_product', 'get_product_token', 'export_skills', 'list_opportunities', 'get_feedback_pricing', 'get_incentives', 'zero_mc_pack'],
  value: ['improve_kernel', 'run_loop_tick', 'list_event_pricing', 'get_reciprocity', 'cost_model'],
  network: ['mesh_match', 'mesh_compose', 'execute_compose', 'used_with', 'network_sense', 'leave_trace', 'sense_traces', 'follow_trail', 'endorse', 'deposit_outcome', 'compose_peers', 'seed_compositions', 'attractor_targets', 'interop_resolve', 'interop_session'],
  collab: [
    'collab_access_status', 'create_collab_workflow', 'complete_collab_path', 'list_collab_workflows', 'collab_run', 'collab_session_open', 'collab_session_join', 'collab_session_next',
    'collab_session_claim', 'collab_session_result', 'collab_session_message', 'collab_session_close', 'list_collab_sessions', 'publish_collab_product', 'list_collab_market',
    'buy_collab_product', 'install_collab_product', 'register_collab_byo',
  ],
  economics: ['network_value', 'get_acceleration', 'get_exonomics', 'hyper_index', 'abundance_rank', 's_curve_board', 'get_platform_cost', 'get_agent_runs'],
  identity: ['bind_identity', 'attest', 'verify_attestation'],
  owner: ['update_listing', 'delete_listing'],
} as const satisfies Record<string, readonly string[]>;

export type ToolsetName = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/** The toolset an agent should connect to first: finding, listing and proving control. */
export const FIRST_TOOLSET: ToolsetName = 'registry';

/** What each toolset is for, in the words find_tools and the discovery documents use. */
export const TOOLSET_PURPOSE: Record<ToolsetName, string> = {
  registry: 'find agents and MCP servers, list yourself, check status, probe, prove you control a listing',
  funnel: 'the free demo, feedback, the founding deal, product access and what raises a listing',
  value: 'value tools for your own agent: its kernel, the improvement loop and what they cost',
  network: 'partners and compositions, running them, traces, endorsements and outcomes',
  collab: 'collaboration workflows and sessions between listings, and the collab market',
  economics: 'the network\'s numbers: value, growth, the metered economy and its costs',
  identity: 'bind a signing key to your listing and prove a listing\'s standing',
  owner: 'edit or delete your listing',
};

/**
 * When to use a tool, in the words an agent asks with where its description says it otherwise
 * ("remove my server" for delete_listing, "find a server that ..." for ard_search): find_tools
 * weighs these above the description.
 */
export const TOOL_USE: Partial<Record<string, string>> = {
  ard_search: 'find or discover an MCP server or agent that does something',
  list_yourself: 'register or publish my agent or MCP server',
  check_status: 'is my listing live yet',
  take_demo: 'try a listing out for free',
  leave_trace: 'warn other agents about a listing, or mark it good',
  delete_listing: 'remove or take down my listing or server',
};

export const FIND_TOOLS = 'find_tools';

export const toolsetPath = (name: ToolsetName) => `/api/mcp/${name}`;

/** The toolsets as the discovery documents and the MCP info objects list them: connect to the first one first. */
export const toolsetLinks = (base: string) => ({
  first_connection: `${base}${toolsetPath(FIRST_TOOLSET)}`,
  toolsets: Object.fromEntries(TOOLSET_NAMES.map((t) => [t, { endpoint: `${base}${toolsetPath(t)}`, purpose: TOOLSET_PURPOSE[t] }])),
});

const byTool = new Map<string, ToolsetName>(TOOLSET_NAMES.flatMap((t) => TOOLSETS[t].map((tool) => [tool, t] as const)));

/** The toolset a tool belongs to (undefined for find_tools, served everywhere, and for a tool no toolset names). */
export const toolsetOf = (tool: string): ToolsetName | undefined => byTool.get(tool);

/** A suggested call in an answer: `{tool, args, why}` (platform/next-step.ts), wherever it sits. */
const isSuggestedCall = (v: Record<string, unknown>): boolean =>
  typeof v.tool === 'string' && typeof v.why === 'string' && typeof v.args === 'object' && v.args !== null && !Array.isArray(v.args);

/**
 * An answer of a toolset's endpoint with `endpoint` (the full URL of the toolset that serves it)
 * added to every suggested call of a tool this toolset does not serve, so an agent follows it
 * without guessing where it is. The answer itself is not changed: what differs is copied.
 */
export function withEndpoints<T>(answer: T, toolset: ToolsetName, base: string): T {
  // Most answers hold no call of another toolset: nothing is copied unless something under it changes.
  const visit = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const seen = visit(v[i]);
        if (seen === v[i]) continue;
        copy ??= [...v];
        copy[i] = seen;
      }
      return copy ?? v;
    }
    const o = v as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const k in o) {
      const seen = visit(o[k]);
      if (seen === o[k]) continue;
      copy ??= { ...o };
      copy[k] = seen;
    }
    const home = isSuggestedCall(o) && o.endpoint === undefined ? toolsetOf(o.tool as string) : undefined;
    if (home !== undefined && home !== toolset) return { ...(copy ?? o), endpoint: `${base}${toolsetPath(home)}` };
    return copy ?? o;
  };
  return visit(answer) as T;
}

/** The operations of a toolset, in the catalog's order (an alias's operation counts once). */
export function toolsetOperations(catalog: readonly AnyOperation[], toolset: ToolsetName): AnyOperation[] {
  const names = new Set<string>(TOOLSETS[toolset]);
  return catalog.filter((op) => op.tool !== false && [op.name, ...(op.aliases ?? [])].some((n) => names.has(n)));
}

const STOP = new Set<string>(eng);

/** "listing", the registry's entry (and "listed", being one), kept apart from "list", what one does to be in it. */
const ENTRY = new Set(['listing', 'listings', 'listed']);

/** A word as find_tools matches it: lower case, stop words left out, the rest stemmed so "partners" finds "partner". */
const termOf = (word: string): string | null => {
  const w = word.toLowerCase();
  if (STOP.has(w)) return null;
  return ENTRY.has(w) ? 'listing' : stemmer(w);
};

/**
 * Words nearly every need holds, which say what it is about but not what to do with it ("my MCP
 * server", "an agent", "the listing"): they count for a fifth of other words, so "find an MCP
 * server that sends email" is ranked by "find", not by the tools whose texts mention servers most.
 */
const OBJECT_WORDS = new Set(['agent', 'server', 'mcp', 'a2a', 'listing', 'registry', 'rollcall', 'tool'].map(termOf));
const OBJECT_WEIGHT = 0.2;

/** A description as find_tools reads it: without the REST route it mirrors and without the names of other tools and fields it mentions. */
const describes = (text: string) => text.replace(/\(same as [^)]*\)/g, ' ').replace(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b/g, ' ');

interface ToolCard {
  tool: string;
  title: string;
  description: string;
  /** the operation's "use when" phrase (TOOL_USE), an alias's too */
  use: string;
  toolset: string;
}

/**
 * find_tools over the catalog: each tool's name (in words), title, "use when" phrase (TOOL_USE),
 * description and its toolset's purpose are indexed once; a need is matched with light fuzziness,
 * its object words weighing little. Each tool's score is 0-100, the best one's 100 (as ard_search
 * scores its hits). `base` makes the endpoints absolute.
 */
export function findToolsOperation(catalog: readonly AnyOperation[], base: string) {
  const cards: ToolCard[] = catalog
    .filter((op) => op.tool !== false)
    .flatMap((op) => [op.name, ...(op.aliases ?? [])].map((tool) => ({ tool, title: op.title ?? tool, description: op.description, use: TOOL_USE[op.name] ?? '', toolset: toolsetOf(tool) ?? '' })));
  const docs = cards.map((c) => ({ ...c, words: c.tool.replaceAll('_', ' '), does: describes(c.description), purpose: c.toolset ? TOOLSET_PURPOSE[c.toolset as ToolsetName] : '' }));
  // A word the tools' texts use is taken as written ("prove" is not a misspelled "probe"); only another is matched fuzzily.
  const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
  const known = new Set(docs.flatMap((d) => [d.words, d.title, d.use, d.does, d.purpose].flatMap((text) => tokenize(text).map(termOf))));
  const index = new MiniSearch<(typeof docs)[number]>({
    idField: 'tool',
    fields: ['words', 'title', 'use', 'does', 'purpose'],
    storeFields: ['tool', 'title', 'description', 'toolset'],
    processTerm: termOf,
    searchOptions: {
      boost: { words: 3, title: 2, use: 3, purpose: 0.5 },
      boostTerm: (term) => (OBJECT_WORDS.has(term) ? OBJECT_WEIGHT : 1),
      fuzzy: (term) => (known.has(term) ? false : 0.1),
      combineWith: 'OR',
    },
  });
  index.addAll(docs);
  const endpointOf = (toolset: string) => `${base}${toolset ? toolsetPath(toolset as ToolsetName) : '/api/mcp'}`;
  return defineOperation({
    name: FIND_TOOLS,
    title: 'Find the tools for a need',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    description: 'Say what you want to do in your own words: the tools that serve it, best first, each with a score (0-100, best 100) and the MCP endpoint (toolset) serving it. On every Rollcall MCP endpoint.',
    input: z.object({
      need: z.string().trim().min(2).max(300).describe('What you want to do ("list my MCP server", "find a translation agent").'),
      limit: z.number().int().min(1).max(20).optional().describe('At most this many tools (default 5).'),
    }),
    output: z.looseObject({
      ok: z.literal(true),
      need: z.string(),
      tools: z.array(z.looseObject({ tool: z.string(), score: z.number(), endpoint: z.string() })),
      toolsets: z.array(z.looseObject({ toolset: z.string(), endpoint: z.string() })),
    }),
    handler: async (_ctx, input) => {
      const hits = index.search(input.need).slice(0, input.limit ?? 5);
      const best = hits[0]?.score ?? 1;
      return {
        ok: true as const,
        need: input.need,
        tools: hits.map((h) => ({
          tool: h.tool as string,
          score: Math.max(1, Math.round((100 * h.score) / best)),
          title: h.title as string,
          toolset: h.toolset as string,
          endpoint: endpointOf(h.toolset as string),
          description: h.description as string,
        })),
        toolsets: TOOLSET_NAMES.map((t) => ({ toolset: t, endpoint: endpointOf(t), purpose: TOOLSET_PURPOSE[t] })),
      };
    },
  });
}
