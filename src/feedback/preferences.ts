// GET /api/products/preferences (SPEC.md 4.1 read surface): what survey answers prefer, counted
// from stored answers: the A/B preference questions, every choice question's distribution, the
// improvements ranked by votes, and every scale's average.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { answeredCount, numericStats, optionCounts } from './aggregates.ts';
import { type AB, QUESTIONS, SURVEY_VERSION } from './survey.ts';

const CHOICE_IDS = QUESTIONS.filter((q) => q.type === 'single' || q.type === 'multi').map((q) => q.id);
const SCALE_IDS = QUESTIONS.filter((q) => q.type === 'scale').map((q) => q.id);
const AB_IDS = ['pref_prompt_winner', 'pref_promote_winner'];

export async function preferences(ex: Ctx['db']['kysely']) {
  const choices = await optionCounts(ex, CHOICE_IDS);
  const scales = await numericStats(ex, SCALE_IDS);
  const counts = (id: string) => {
    const q = QUESTIONS.find((x) => x.id === id)!;
    const m = choices.get(id) ?? new Map<string, number>();
    return Object.fromEntries(q.options!.map((o) => [o, m.get(o) ?? 0]));
  };
  const ab = Object.fromEntries(
    AB_IDS.map((id) => {
      const c = counts(id) as Record<(typeof AB)[number], number>;
      const n = c.a + c.b + c.tie;
      const leader = n === 0 ? null : c.a > c.b ? 'a' : c.b > c.a ? 'b' : 'tie';
      return [id, { ...c, n, leader, a_share: n ? Math.round((c.a / n) * 1000) / 1000 : null }];
    }),
  );
  const improvements = Object.entries(counts('improvements'))
    .filter(([, votes]) => votes > 0)
    .map(([option, votes]) => ({ option, votes }))
    .sort((a, b) => b.votes - a.votes || a.option.localeCompare(b.option));
  const after = (id: string) => {
    const s = scales.get(id);
    return s ? { n: s.n, avg: s.avg, fixed: s.high, fixed_share: Math.round((s.high / s.n) * 1000) / 1000 } : { n: 0, avg: null, fixed: 0, fixed_share: null };
  };
  return {
    survey_version: SURVEY_VERSION,
    n: await answeredCount(ex, [...CHOICE_IDS, ...SCALE_IDS]),
    ab,
    improvements,
    still_broken: counts('still_broken'),
    fixed_after: { kernel: after('kernel_clarity_after'), loop: after('loop_clarity_after'), rule: 'an answer of 4 or more counts as fixed' },
    choices: Object.fromEntries(CHOICE_IDS.filter((id) => !AB_IDS.includes(id) && id !== 'improvements').map((id) => [id, counts(id)])),
    scales: Object.fromEntries(SCALE_IDS.map((id) => [id, scales.get(id) ? { n: scales.get(id)!.n, avg: scales.get(id)!.avg, high: scales.get(id)!.high, low: scales.get(id)!.low } : { n: 0, avg: null, high: 0, low: 0 }])),
  };
}

export const feedbackPreferences = defineOperation({
  name: 'feedback_preferences',
  title: 'Survey preferences',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'What the structured survey answers prefer (GET /api/products/preferences): the A/B preference questions (pref_prompt_winner, pref_promote_winner) with their leader, every choice question\'s counts, improvements ranked by votes, whether reported problems are still broken, and every scale\'s average; all counted from stored answers.',
  input: z.object({}),
  output: z.looseObject({ ok: z.literal(true), n: z.number(), ab: z.record(z.string(), z.looseObject({ n: z.number() })), improvements: z.array(z.looseObject({ option: z.string(), votes: z.number() })) }),
  handler: async (ctx: Ctx) => ({ ok: true as const, ...(await preferences(ctx.db.kysely)) }),
});
