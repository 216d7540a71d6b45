// Goals as callers send them (text or a list) turned into the kernel's goal list: text is split at
// line breaks and semicolons (list markers dropped); every goal is cleaned, capped and must carry
// at least one key term. Problems are 400s naming the goal.
import { badRequest } from '../platform/errors.ts';
import { refusePlaceholder } from '../platform/real-text.ts';
import { cleanText } from '../listings/text.ts';
import { MAX_GOAL_CHARS, MAX_GOALS } from './build.ts';
import { keyTerms } from './terms.ts';

const MARKER = /^\s*(?:[-*•·]|\d{1,2}[.)])\s+/;

export function parseGoals(goals: string | string[]): string[] {
  const fromText = typeof goals === 'string';
  const pieces = fromText ? goals.split(/\r?\n|;/).map((g) => g.replace(MARKER, '')) : goals;
  const out: string[] = [];
  pieces.forEach((raw, i) => {
    const field = fromText ? 'goals' : `goals.${i}`;
    const goal = cleanText(raw, Number.MAX_SAFE_INTEGER);
    if (goal === '') {
      if (fromText) return; // blank lines between goals are not goals
      throw badRequest('invalid_input', `${field}: a goal is empty`, field);
    }
    if (goal.length > MAX_GOAL_CHARS) throw badRequest('invalid_input', `${field}: a goal has ${goal.length} characters, at most ${MAX_GOAL_CHARS}`, field);
    refusePlaceholder(goal, field, 'what your agent must achieve, in your own words');
    if (keyTerms(goal).length === 0) throw badRequest('invalid_input', `${field}: ${JSON.stringify(goal.slice(0, 60))} has no meaningful word; say what the agent should achieve`, field);
    out.push(goal);
  });
  if (out.length === 0) throw badRequest('invalid_input', 'goals: give at least one goal', 'goals');
  if (out.length > MAX_GOALS) throw badRequest('invalid_input', `goals: ${out.length} goals, at most ${MAX_GOALS}`, 'goals');
  return out;
}
