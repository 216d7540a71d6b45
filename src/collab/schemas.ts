// Input fields and output shapes the collab tools share.
import { z } from 'zod';
import { MAX_GOAL, MAX_PARTNERS, MAX_STEP_TITLE, MAX_STEPS } from './plan.ts';

const id = (what: string) => z.string().min(1).max(64).describe(what);

export const sessionIdField = id('The collab session id (from collab_session_open or complete_collab_path).');
export const workflowIdField = id('The collab workflow id (from create_collab_workflow or complete_collab_path).');
export const productIdField = id('The collab product (product_id from collab_session_close or list_collab_market).');
export const actorListingField = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe('Your listing, acting with its owner token (Authorization: Bearer rco_...).');
export const accessTokenField = z.string().max(200).optional().describe('Your listing\'s access token (rc_...); a full one buys market products free.');
export const agentNameField = z.string().max(120).optional().describe('Your agent name (a label kept with the workflow).');
export const goalField = z.string().max(MAX_GOAL, `must be at most ${MAX_GOAL} characters`).describe('What the collaboration should achieve; without steps, each need becomes a step.');
export const partnerFields = {
  partner_listing_id: z.string().min(1).max(64).optional().describe('One partner listing to invite (role "partner").'),
  partner_listing_ids: z.array(z.string().min(1).max(64)).max(MAX_PARTNERS).optional().describe(`Partner listings to invite (role "partner"), at most ${MAX_PARTNERS}.`),
  partners: z
    .array(z.object({ listing_id: z.string().min(1).max(64), role: z.string().max(32).optional().describe('The role the partner holds (default "partner").') }))
    .max(MAX_PARTNERS)
    .optional()
    .describe('Partners with roles ({listing_id, role}); with none, any Live listing may join.'),
};
export const stepsField = z
  .array(z.object({ title: z.string().max(MAX_STEP_TITLE), role: z.string().max(32).describe('"lead" (you), "any", or a partner\'s role.') }))
  .min(1)
  .max(MAX_STEPS)
  .optional()
  .describe(`Ordered steps with the role doing each (at most ${MAX_STEPS}); default: from the goal.`);

export const meterOutput = z.looseObject({ event_id: z.string(), used_today: z.number(), free_per_day: z.number(), remaining: z.number() });
export const nextStepOutput = z.looseObject({ tool: z.string(), args: z.looseObject({}), why: z.string() });
export const sessionOutput = z.looseObject({ session_id: z.string(), workflow_id: z.string(), state: z.enum(['open', 'active', 'converged', 'closed']), steps: z.array(z.looseObject({ step: z.number(), role: z.string(), state: z.string() })) });
export const workflowOutput = z.looseObject({ workflow_id: z.string(), goal: z.string(), lead_listing_id: z.string(), steps: z.array(z.looseObject({ step: z.number(), title: z.string(), role: z.string() })) });
