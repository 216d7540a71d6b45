// Goals as callers send them (text or a list) turned into the kernel's goal list: text is split at
// line breaks and semicolons (list markers dropped); every goal is cleaned, capped and must carry
// at least one key term. Problems are 400s naming the goal, and every one says what goals must be.
import { z } from 'zod';
import { badRequest } from '../platform/errors.ts';
import { refusePlaceholder } from '../platform/real-text.ts';
import { cleanText } from '../listings/text.ts';
import { MAX_GOAL_CHARS, MAX_GOALS } from './build.ts';
import { keyTerms } from './terms.ts';

const MARKER = /^\s*(?:[-*•·]|\d{1,2}[.)])\s+/;

/** Raw lengths the input schema lets through; cleaning (whitespace, control characters) may shorten them to the real bound. */
const RAW_TEXT_CHARS = 12_000;
const RAW_GOAL_CHARS = 2000;

/** What goals must be, said in every refusal of them. */
export const GOALS_RULE = `1-${MAX_GOALS} goals, each at most ${MAX_GOAL_CHARS} characters with at least one meaningful word saying what the agent must achieve: a list of strings, or one text with one goal per line`;

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** Why a `goals` value fails the schema, in words a caller can act on. */
function goalsProblem(input: unknown): string {
  if (input === undefined) return `is required: give ${GOALS_RULE}`;
  if (Array.isArray(input)) {
    const bad = input.findIndex((g) => typeof g !== 'string');
    if (bad >= 0) return `goal ${bad + 1} is ${kindOf(input[bad])}, not a string: give ${GOALS_RULE}`;
    if (input.length > MAX_GOALS) return `${input.length} goals, at most ${MAX_GOALS}: give ${GOALS_RULE}`;
  }
  return `got ${kindOf(input)}: give ${GOALS_RULE}`;
}

/** improve_kernel's `goals` field: its refusals name the rule, not only "Invalid input". */
export const goalsField = z
  .union([z.string().max(RAW_TEXT_CHARS, `a text of at most ${RAW_TEXT_CHARS} characters: give ${GOALS_RULE}`), z.array(z.string().max(RAW_GOAL_CHARS, `a goal is at most ${MAX_GOAL_CHARS} characters: give ${GOALS_RULE}`)).max(MAX_GOALS)], {
    error: (issue) => goalsProblem(issue.input),
  })
  .describe(`Your agent's goals: ${GOALS_RULE}.`);

export function parseGoals(goals: string | string[]): string[] {
  const fromText = typeof goals === 'string';
  const pieces = fromText ? goals.split(/\r?\n|;/).map((g) => g.replace(MARKER, '')) : goals;
  const out: string[] = [];
  pieces.forEach((raw, i) => {
    const field = fromText ? 'goals' : `goals.${i}`;
    const goal = cleanText(raw, Number.MAX_SAFE_INTEGER);
    if (goal === '') {
      if (fromText) return; // blank lines between goals are not goals
      throw badRequest('invalid_input', `${field}: a goal is empty; give ${GOALS_RULE}`, field);
    }
    if (goal.length > MAX_GOAL_CHARS) throw badRequest('invalid_input', `${field}: a goal has ${goal.length} characters, at most ${MAX_GOAL_CHARS}; give ${GOALS_RULE}`, field);
    refusePlaceholder(goal, field, 'what your agent must achieve, in your own words');
    if (keyTerms(goal).length === 0) throw badRequest('invalid_input', `${field}: ${JSON.stringify(goal.slice(0, 60))} has no meaningful word; say what the agent should achieve: give ${GOALS_RULE}`, field);
    out.push(goal);
  });
  if (out.length === 0) throw badRequest('invalid_input', `goals: no goal given; give ${GOALS_RULE}`, 'goals');
  if (out.length > MAX_GOALS) throw badRequest('invalid_input', `goals: ${out.length} goals, at most ${MAX_GOALS}; give ${GOALS_RULE}`, 'goals');
  return out;
}
