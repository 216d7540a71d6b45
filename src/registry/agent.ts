// POST /api/products/agent (SPEC.md 4.1): the agent-native path. `{tool: 'submit_feedback',
// answers}` runs leave_feedback itself in structured mode (so it records, refills, marks trails and
// grants exactly what leave_feedback grants), with rating defaulting to answers.overall and body to
// the survey's required text answers. Other `tool` values are a 400 listing what is accepted.
import { z } from 'zod';
import { defineOperation, runOperation } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { MAX_NAME } from '../listings/text.ts';
import { bodyField, ratingField, SURFACES } from '../feedback/operations.ts';
import { leaveFeedback } from './feedback.ts';
import type { MeshCtx } from '../mesh/partners.ts';
import type { ClaimCtx } from './claim-proof.ts';
import { answersField, surveyPart } from '../feedback/structured.ts';
import { MAX_BODY_CHARS } from '../feedback/real.ts';

export const AGENT_TOOLS = ['submit_feedback'] as const;

/** The survey's text answers a body is made of when none is given, in this order. */
export const BODY_FROM = ['ux_friction', 'confusing', 'would_pay_for'] as const;

const input = z.object({
  tool: z.string().max(64).describe(`What to do: ${AGENT_TOOLS.join(', ')}.`),
  answers: answersField,
  rating: ratingField.optional().describe('Your rating 1-5 (default: answers.overall).'),
  body: bodyField.optional().describe(`One real sentence (default: your answers to ${BODY_FROM.join(', ')}).`),
  agent_name: z.string().max(MAX_NAME).optional().describe('Your agent\'s name: whose allowance the refill goes to.'),
  listing_id: z.string().max(64).optional().describe('The listing this feedback is about (your own, when you have one).'),
  surface: z.enum(SURFACES).optional().describe('Where the feedback is about (SPEC.md 2.5 surface ids); default general.'),
  audience: z.enum(['agent', 'mcp']).optional().describe('Whether you are an agent or an MCP server.'),
  sku: z.string().max(60).optional(),
  source: z.string().max(60).optional().describe('Your runtime or client (default agent).'),
  tags: z.array(z.string().max(40)).max(10).optional(),
  access_token: z.string().max(200).optional().describe('Your access token (or send Authorization: Bearer).'),
});

/** The body an agent's answers make when it sends none: its required text answers, joined. */
export function bodyFromAnswers(answers: unknown): string | undefined {
  if (typeof answers !== 'object' || answers === null) return undefined;
  const parts = BODY_FROM.map((id) => (answers as Record<string, unknown>)[id]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return parts.length ? parts.map((p) => p.trim().replace(/[.!?]*$/, '.')).join(' ').slice(0, MAX_BODY_CHARS) : undefined;
}

export const productsAgent = defineOperation({
  name: 'products_agent',
  title: 'Agent-native product path',
  tool: false,
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  description:
    'The agent-native path (POST /api/products/agent): {tool: "submit_feedback", answers} submits the structured survey as leave_feedback does in mode structured (same recording, refill and grants), with rating defaulting to answers.overall and body to your ux_friction, confusing and would_pay_for answers. Every survey problem is listed at once.',
  input,
  output: z.looseObject({ ok: z.literal(true), feedback_id: z.string(), structured: z.literal(true), agent_path: z.looseObject({ tool: z.string() }) }),
  handler: async (ctx: MeshCtx & ClaimCtx, input) => {
    if (!(AGENT_TOOLS as readonly string[]).includes(input.tool)) {
      throw badRequest('unknown_agent_tool', `tool ${JSON.stringify(input.tool.slice(0, 64))} is not served here; accepted: ${AGENT_TOOLS.join(', ')} (other tools are on the MCP endpoint, POST /api/mcp)`, 'tool', { accepted: AGENT_TOOLS });
    }
    const { tool, answers, rating, body, ...rest } = input;
    const derivedBody = body ?? bodyFromAnswers(answers);
    // Every survey problem first, in one 400, before a rating or body is derived from the answers.
    surveyPart({ mode: 'structured', answers, body: derivedBody ?? '' });
    const overall = (answers as Record<string, unknown>).overall as number;
    const result = (await runOperation(leaveFeedback, ctx, { ...rest, source: rest.source ?? 'agent', mode: 'structured', answers, rating: rating ?? overall, body: derivedBody }, 'rest')) as Record<string, unknown>;
    return {
      ...result,
      ok: true as const,
      structured: true as const,
      agent_path: { tool, rating_from: rating === undefined ? 'answers.overall' : 'rating', body_from: body === undefined ? BODY_FROM.map((id) => `answers.${id}`) : 'body' },
    };
  },
});
