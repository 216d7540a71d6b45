// Pure helpers of a workflow's plan: role names, the ordered steps (given, or derived from the
// goal deterministically), and the default goal of a listing. Rules:
// docs/decisions/collab-sessions.md.
import { badRequest } from '../platform/errors.ts';
import { cleanText } from '../listings/text.ts';
import { goalNeeds, storedItems } from '../mesh/coverage.ts';

/** The workflow owner's role. */
export const LEAD = 'lead';
/** A step anyone who has joined may claim. */
export const ANY = 'any';
/** The role of a partner when none is named, and of everyone who joins an open session. */
export const PARTNER = 'partner';

export const MAX_GOAL = 2000;
export const MIN_GOAL = 8;
export const MAX_STEPS = 12;
export const MAX_STEP_TITLE = 200;
export const MAX_PARTNERS = 24;
const ROLE = /^[a-z][a-z0-9_-]{0,31}$/;

export interface PlannedStep {
  step: number;
  title: string;
  role: string;
}

export interface PartnerSeat {
  listing_id: string;
  role: string;
}

/** A role name as stored: lower-case; a 400 naming `field` when it is not a plain name. */
export function roleName(raw: string, field: string): string {
  const role = raw.trim().toLowerCase();
  if (!ROLE.test(role)) throw badRequest('invalid_input', `role ${JSON.stringify(raw.slice(0, 40))}: a role is a short name (a-z, digits, - and _, at most 32 characters), e.g. "writer"`, field);
  return role;
}

/** The goal as stored: cleaned, capped; a 400 when nothing readable is left. */
export function cleanGoal(raw: string, field = 'goal'): string {
  const goal = cleanText(raw, MAX_GOAL);
  if (goal.length < MIN_GOAL || goalNeeds(goal).length === 0) {
    throw badRequest('invalid_input', `say what the collaboration should achieve in at least ${MIN_GOAL} characters with real words, e.g. "research the market, write a summary"`, field);
  }
  return goal;
}

/** The roles steps may name: the lead, any, and each partner role (`partner` when anyone may join). */
export function rolesOf(partners: readonly PartnerSeat[]): string[] {
  const partnerRoles = partners.length ? [...new Set(partners.map((p) => p.role))] : [PARTNER];
  return [LEAD, ANY, ...partnerRoles.filter((r) => r !== LEAD && r !== ANY)];
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Steps derived from the goal: one per need of the goal (split as mesh_compose splits goals),
 * given to the partner roles in turn, then a last step for the lead that reviews and assembles.
 */
export function deriveSteps(goal: string, partners: readonly PartnerSeat[]): PlannedStep[] {
  const roles = rolesOf(partners).slice(2);
  const needs = goalNeeds(goal).slice(0, MAX_STEPS - 1);
  const steps = needs.map((need, i) => ({ step: i + 1, title: capitalized(cleanText(need, MAX_STEP_TITLE)), role: roles[i % roles.length]! }));
  steps.push({ step: steps.length + 1, title: 'Review the results and assemble the deliverable', role: LEAD });
  return steps;
}

/** Steps a caller gave: titles cleaned, roles checked against the workflow's roles. */
export function givenSteps(raw: readonly { title: string; role: string }[], partners: readonly PartnerSeat[]): PlannedStep[] {
  const allowed = rolesOf(partners);
  return raw.map((s, i) => {
    const title = cleanText(s.title, MAX_STEP_TITLE);
    if (title === '') throw badRequest('invalid_input', 'a step needs a title saying what to do', `steps.${i}.title`);
    const role = roleName(s.role, `steps.${i}.role`);
    if (!allowed.includes(role)) {
      throw badRequest('invalid_input', `no participant holds role ${JSON.stringify(role)}: use one of ${allowed.join(', ')}`, `steps.${i}.role`);
    }
    return { step: i + 1, title, role };
  });
}

/** A listing's default goal (complete_collab_path and feedback without one): from its name and first capability. */
export function defaultGoal(listing: { name: string; capabilities: string | null }): string {
  const name = cleanText(listing.name, 80) || 'this listing';
  const first = storedItems(listing.capabilities)[0]?.name;
  return `Review the card of ${name}, test ${first ? cleanText(first, 80) : 'its main skill'} with real inputs, write an improvement report`;
}
