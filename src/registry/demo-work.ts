// The work a demo does (TOOLS.md take_demo), with the value tools' own code and unmetered. Every
// demo first shows what the listing can do, from what its last probe saw: a server's tools, each
// with a ready tools/call built from its input schema, or an agent's skills, each with a ready A2A
// message. Then `alive` (agents) builds a kernel from the agent's card, runs one loop tick over
// the evidence about the listing and reads a network snapshot; `mcp_mesh` (MCPs) matches partners
// for the server's tools and, when the network has partners for it, stores a proposed composition
// for what the network wants that the server lacks. What a demo builds is its holder's (the
// caller): the listing's own kernel changes only when its owner takes the demo. Card text stays
// data: the kernel builder quotes it.
import { randomUUID } from 'node:crypto';
import type { Executor } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { cleanText, MAX_NAME } from '../listings/text.ts';
import type { ListingRow } from '../listings/store.ts';
import { listingWorkKey } from '../metering/caller.ts';
import { strongest, fieldOf, type FieldEntry } from '../traces/store.ts';
import { outcomesSince } from '../traces/outcomes.ts';
import { feedbackSince, recentFeedbackOf } from '../feedback/store.ts';
import { artifactView, buildKernel, withThemes, type KernelSpec } from '../kernel/build.ts';
import { keyTerms } from '../kernel/terms.ts';
import { feedbackSignal, IDLE_REASONS, outcomeSignal, planTick } from '../kernel/loop.ts';
import { latestVersion, saveVersion, type KernelVersion } from '../kernel/store.ts';
import { cardOf, communityThemes, OWN_HISTORY, requestedThemes } from '../kernel/operations.ts';
import { storedItems, storedItemsWithDetails } from '../mesh/coverage.ts';
import { a2aSendWith, mcpCallWith, readySkills, readyTools } from '../mesh/ready-calls.ts';
import { contextCostOf, loadProbeState } from '../probe/store.ts';
import { serverTools } from '../mesh/server-tools.ts';
import { findPartners, type MeshCtx, type Partner } from '../mesh/partners.ts';
import { complementOf } from '../mesh/complement.ts';
import { greedyCover, planSteps, round } from '../mesh/plan.ts';
import { findComposition, insertComposition, type Composition } from '../mesh/store.ts';

/** Goals a card-built kernel takes from the card's skills (then its description). */
const CARD_GOALS = 5;
const GOAL_CHARS = 200;
/** Evidence one demo tick reads at most (of each kind). */
const TICK_READ = 200;
const MATCHES = 10;
const SNAPSHOT = 5;

/** The agent's goals as its card states them: its skills (title or name: description), else its description. */
export function cardGoals(row: ListingRow): string[] {
  const goals: string[] = [];
  for (const item of storedItems(row.capabilities)) {
    const text = cleanText([item.title ?? item.name, item.description].filter((x) => x && x.trim() !== '').join(': '), GOAL_CHARS);
    if (text !== '' && keyTerms(text).length > 0 && !goals.includes(text)) goals.push(text);
    if (goals.length >= CARD_GOALS) return goals;
  }
  for (const sentence of row.description.split(/(?<=[.!?])\s+/)) {
    const text = cleanText(sentence, GOAL_CHARS);
    if (text !== '' && keyTerms(text).length > 0) goals.push(text);
    if (goals.length >= 2) break;
  }
  if (!goals.length) goals.push('answer each request accurately and say plainly what you cannot do');
  return goals;
}

/** The kernel spec of a listing built from its card, with its holder's requests for change and the community's themes, each with its evidence. */
export async function cardSpec(ex: Executor, row: ListingRow, holder: string): Promise<KernelSpec> {
  const own = await recentFeedbackOf(ex, holder, OWN_HISTORY);
  const { applied, evidence } = await communityThemes(ex, holder, false);
  let themes = withThemes([], requestedThemes(own), 'your_feedback');
  themes = withThemes(themes, new Map(applied.map((t) => [t, evidence.get(t) ?? []])), 'community');
  return {
    agent_name: cleanText(row.name, MAX_NAME) || row.id,
    audience: row.kind,
    goals: cardGoals(row),
    card: cardOf(row),
    themes,
    notes: [],
    strength: {},
  };
}

/**
 * What the listing can do, as its last probe saw it: each tool with a ready tools/call (MCP) or
 * each skill with a ready A2A message (agents), how to send them (once), and the probe's facts.
 */
export async function listingAbilities(ex: Executor, row: ListingRow) {
  const state = await loadProbeState(ex, row.id);
  const items = storedItemsWithDetails(row.capabilities);
  const endpoint = state?.target ?? row.url;
  const protocol = state?.protocol ?? null;
  const contextCost = row.kind === 'mcp' ? contextCostOf(state?.report ?? null) : null;
  const probe = {
    probed_at: state?.probed_at ?? null,
    endpoint,
    protocol,
    latency_ms: state?.latency_ms ?? null,
    score: state?.score ?? null,
    [row.kind === 'mcp' ? 'tools' : 'skills']: items.length,
    ...(contextCost ? { context_cost: contextCost } : {}),
  };
  if (row.kind === 'mcp') {
    const { tools, more } = readyTools(items);
    return { probe, tools, ...(more ? { more_tools: more } : {}), call_with: mcpCallWith(endpoint, protocol) };
  }
  const { skills, more } = readySkills(items, protocol, randomUUID);
  return { probe, skills, ...(more ? { more_skills: more } : {}), send_with: a2aSendWith(endpoint, protocol) };
}

/** A kernel version in a demo: the stored artifact once (its system prompt and size are inside it). */
export const demoKernelView = (v: KernelVersion) => ({
  kernel_id: v.id,
  version: v.version,
  kind: v.kind,
  created_at: v.created_at,
  reason: v.reason,
  artifact: v.artifact,
});

/** A demo's loop tick that changed the kernel: what changed and why, with the new short prompt (the whole new version is in the kernel artifact its token opens). */
export const demoTickView = (v: KernelVersion, previous: number) => ({
  kernel_id: v.id,
  version: v.version,
  previous_version: previous,
  created_at: v.created_at,
  reason: v.reason,
  system_prompt_short: v.artifact.system_prompt_short,
  ...(v.diff ? { diff: v.diff } : {}),
});

export const kernelView = (v: KernelVersion) => ({
  kernel_id: v.id,
  version: v.version,
  kind: v.kind,
  created_at: v.created_at,
  reason: v.reason,
  system_prompt_short: v.artifact.system_prompt_short,
  chars: v.artifact.chars,
  cut: v.artifact.cut,
  artifact: artifactView(v.artifact),
  ...(v.diff ? { diff: v.diff } : {}),
});

/** alive: the card's kernel (stored as the holder's next version) and one loop tick over the evidence about the listing. */
export async function aliveWork(trx: Executor, row: ListingRow, holder: string, now: Date) {
  const subject = holder;
  const at = iso(now);
  const spec = await cardSpec(trx, row, holder);
  const built = buildKernel(spec);
  const first = await saveVersion(trx, { subject, kind: 'improve', listing_id: row.id, agent_name: spec.agent_name, spec, artifact: built, reason: `demo: built from the card of ${row.id} (${spec.goals.length} goal${spec.goals.length === 1 ? '' : 's'} from its ${storedItems(row.capabilities).length ? 'skills' : 'description'})`, diff: null, created_at: at });
  // The tick reads every piece of evidence about the listing so far (feedback naming it or left by it, outcomes about it).
  const feedback = await feedbackSince(trx, { subject: listingWorkKey(row.id), listing_id: row.id }, '', TICK_READ);
  const outcomes = await outcomesSince(trx, { listing_id: row.id }, '', TICK_READ);
  const { plan, idle, scores } = planTick(first.spec, [...feedback.map(feedbackSignal), ...outcomes.map(outcomeSignal)]);
  let tick: KernelVersion | undefined;
  if (plan) {
    const artifact = plan.artifact;
    const t = plan.target;
    const reason = `demo tick: ${t.id} was the weakest check the evidence speaks to: score ${t.score} on ${t.evidence} weight of evidence from ${feedback.length} feedback item(s) and ${outcomes.length} outcome(s) about ${row.id}; ${plan.action}`; // the evidence ids are the owner's (diff.because), not the public log's
    tick = await saveVersion(trx, { subject, kind: 'tick', listing_id: row.id, agent_name: first.agent_name, spec: plan.spec, artifact, reason, diff: plan.diff, created_at: at });
  }
  return { kernel: first, tick, idle: idle && IDLE_REASONS[idle], scores, evidence: { feedback: feedback.length, outcomes: outcomes.length } };
}

const fieldView = (e: FieldEntry) => ({ channel: e.channel, subject_kind: e.subject_kind, a: e.a, b: e.b, value: round(e.value), deposits: e.deposits, last_at: e.last_at });

/** The trace field now: the listing's own marks and the network's strongest attraction, demand and danger elsewhere. */
export async function networkSnapshot(ex: Executor, listingId: string, now: Date) {
  // The listing's own marks are shown once, under `listing`; the strongest lists show the others.
  const own = (e: FieldEntry) => e.subject_kind === 'listing' && e.a === listingId && e.b === null;
  const others = async (channel: 'attraction' | 'demand' | 'danger') =>
    (await strongest(ex, channel, now, SNAPSHOT + 1)).filter((e) => !own(e)).slice(0, SNAPSHOT).map(fieldView);
  return {
    at: iso(now),
    listing: (await fieldOf(ex, [`listing:${listingId}`], now)).map(fieldView),
    strongest: {
      attraction: await others('attraction'),
      demand: await others('demand'),
      danger: await others('danger'),
    },
    decay: 'values are decayed to now: v * 2^(-dt/half_life), half-lives attraction 168 h, demand 48 h, danger 72 h',
  };
}

/** The server's tools as capabilities (all of them, up to mesh's MAX_SERVER_TOOLS). */
export const toolCapabilities = (row: ListingRow): string[] => serverTools(row).capabilities;

const matchView = (p: Partner) => ({
  listing_id: p.row.id,
  kind: p.row.kind,
  name: p.row.name,
  endpoint: p.endpoint,
  covers: [...p.covered.keys()],
  via: [...p.covered.entries()].map(([capability, c]) => ({ capability, [p.row.kind === 'mcp' ? 'tool' : 'skill']: c.item.name, relevance: c.score })),
  probe_score: p.probe_score,
  trail_strength: round(p.trail),
});

/**
 * Live partners whose skills or tools cover this server's tools, most covered first; undefined
 * when there are none (a lone server's demo shows its tools, not an empty partner list). The
 * tools themselves are the demo's `tools`; `left_out` names those no partner was looked for.
 */
export async function toolMatches(ctx: MeshCtx, ex: Executor, row: ListingRow) {
  const { capabilities: tools, left_out } = serverTools(row);
  const partners = tools.length ? await findPartners(ctx, ex, tools, { exclude: row.id }) : [];
  if (!partners.length) return undefined;
  const hits = partners
    .map(matchView)
    .sort((a, b) => b.covers.length - a.covers.length || (b.probe_score ?? -1) - (a.probe_score ?? -1) || (a.listing_id < b.listing_id ? -1 : 1))
    .slice(0, MATCHES);
  return { count: hits.length, hits, ...(left_out.length ? { left_out } : {}) };
}

export const compositionView = (c: Composition) => ({
  composition_id: c.composition_id,
  listing_id: c.listing_id,
  capabilities: c.capabilities,
  steps: c.steps,
  gaps: c.gaps,
  created_at: c.created_at,
});

/**
 * mcp_mesh: a composition for what the network wants that this server lacks (mesh complement:
 * strongest demand, else what most Live listings offer); when it lacks nothing, partners for its
 * own tools (stand-ins). Stored like mesh_compose stores one, owned by the demo's holder, when
 * some partner covers part of it; with no partner there is nothing to compose (null, nothing stored).
 */
export async function meshWork(ctx: MeshCtx, trx: Executor, row: ListingRow, holder: string, now: Date) {
  const complement = await complementOf(ctx, trx, row);
  const rule = complement.capabilities.length ? complement.rule : 'own_tools';
  const universe = complement.capabilities.length ? complement.capabilities : toolCapabilities(row);
  const partners = universe.length ? await findPartners(ctx, trx, universe, { exclude: row.id }) : [];
  const { picks, gaps } = greedyCover(
    universe,
    partners.map((p) => ({ ...p, id: p.row.id, covers: new Set(p.covered.keys()) })),
  );
  if (!picks.length) return null;
  const id = newId('cmp');
  const composition: Composition = { composition_id: id, owner: holder, listing_id: row.id, goal: null, capabilities: universe, steps: planSteps(picks, null, id), gaps, created_at: iso(now) };
  await insertComposition(trx, composition);
  return { composition, rule };
}

/** What a repeat demo serves again: the holder's kernel for the listing now, or the demo's composition. */
export async function storedDemo(trx: Executor, row: ListingRow, holder: string, compositionId: string | null) {
  const kernel = await latestVersion(trx, holder, row.id);
  const composition = compositionId ? await findComposition(trx, compositionId) : undefined;
  return { kernel, composition };
}
