// get_agent_runs: one caller's (or listing's) history of value-tool runs, read from the stores
// that hold them: kernel versions and loop ticks (kernel), compositions (mesh), outcomes (traces)
// and today's metered units (metering). The caller is named as a metered call names itself.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { notFound } from '../platform/errors.ts';
import { nextStep } from '../platform/next-step.ts';
import { findListingById } from '../listings/store.ts';
import { callerArgs } from '../metering/operations.ts';
import { resolveSubject } from '../metering/caller.ts';
import { usageOfDay } from '../metering/store.ts';
import { subjectView } from '../metering/usage.ts';
import { utcDay } from '../metering/day.ts';
import { recentOutcomes } from '../traces/outcomes.ts';
import { versionsOf } from '../kernel/store.ts';
import { compositionsOfListing, compositionsOfOwner } from '../mesh/store.ts';
import { READ_ONLY } from './window.ts';

export const getAgentRuns = defineOperation({
  name: 'get_agent_runs',
  title: 'A caller\'s value-tool runs',
  annotations: READ_ONLY,
  description:
    'Your or a listing\'s history of value-tool runs, newest first: kernel versions, loop ticks, compositions, outcomes, and today\'s metered units per event. Identify with your listing\'s owner token (Bearer) or agent_name; else your address\'s.',
  input: z.strictObject({ ...callerArgs, limit: z.coerce.number().int().min(1).max(100).default(20).describe('How many of each kind of run (default 20, at most 100).') }),
  output: z.looseObject({ ok: z.literal(true), caller: z.looseObject({ kind: z.string(), label: z.string() }), kernel_versions: z.array(z.looseObject({ version: z.number() })), compositions: z.array(z.looseObject({ composition_id: z.string() })), outcomes: z.array(z.looseObject({ id: z.string() })) }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    if (input.listing_id !== undefined && !(await findListingById(ex, input.listing_id))) throw notFound(`no listing has the id ${JSON.stringify(input.listing_id)}`, 'listing_id');
    const subject = await resolveSubject(ex, ctx, { listing_id: input.listing_id, agent_name: input.agent_name }, { record: false });
    const listingId = subject.listing_id;
    const versions = await versionsOf(ex, subject.key, input.limit);
    const own = await compositionsOfOwner(ex, subject.key, input.limit);
    const taking = listingId ? await compositionsOfListing(ex, listingId, input.limit) : [];
    const compositions = new Map<string, { composition_id: string; role: string; goal: string | null; capabilities: string[]; partners: string[]; gaps: string[]; created_at: string }>();
    for (const c of [...own.map((c) => ({ ...c, role: 'owner' })), ...taking]) {
      if (compositions.has(c.composition_id)) continue;
      compositions.set(c.composition_id, { composition_id: c.composition_id, role: c.role, goal: c.goal, capabilities: c.capabilities, partners: c.steps.map((s) => s.listing_id), gaps: c.gaps, created_at: c.created_at });
    }
    const outcomes = await recentOutcomes(ex, { depositor: subject.key, listing_id: listingId }, input.limit);
    const today = await usageOfDay(ex, subject.allowance, utcDay(ctx.clock.now()));
    const listed = [...compositions.values()].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, input.limit);
    return {
      ok: true as const,
      caller: subjectView(subject),
      summary: {
        kernel_versions: versions[0]?.version ?? 0,
        loop_ticks: versions.filter((v) => v.kind === 'tick').length,
        compositions: listed.length,
        outcomes: outcomes.length,
      },
      kernel_versions: versions.map((v) => ({ version: v.version, kind: v.kind, reason: v.reason, listing_id: v.listing_id, created_at: v.created_at })),
      compositions: listed,
      outcomes: outcomes.map((o) => ({ id: o.id, listing_id: o.listing_id, ok: o.ok, quality: o.quality, from: o.from, mine: o.depositor === subject.key, at: o.at })),
      today: today.map((u) => ({ event_id: u.event_id, used: u.used, refilled: u.refilled, paid: u.paid })),
      ...(versions.length === 0 ? { next_step: nextStep('improve_kernel', input.agent_name ? { agent_name: input.agent_name } : {}, `no runs yet: a first kernel is free; add goals (what your agent must achieve, in your own words)${input.agent_name ? '' : ' and agent_name'}`, input.agent_name ? ['goals'] : ['agent_name', 'goals']) } : {}),
    };
  },
});
