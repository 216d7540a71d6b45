// The structured survey of SPEC.md 2.5 as data: every question with its type, required flag,
// options, minimum text length and range, version 3.1.0 (SPEC.md 9). `checkAnswers` enforces it and
// reports every violation at once. The ultra path never requires a question: there, only the
// answers given are checked (type, option, length, range, unknown ids), never the required flags.
import { cleanText } from '../listings/text.ts';
import { junkReason, placeholderIn } from '../platform/real-text.ts';

export const SURVEY_VERSION = '3.1.0';

export type QuestionType = 'scale' | 'single' | 'multi' | 'text' | 'currency';

export interface Question {
  id: string;
  type: QuestionType;
  required: boolean;
  /** single and multi: the accepted option ids. */
  options?: readonly string[];
  /** text: minimum length in characters (after trimming). */
  min_length?: number;
  /** scale and currency: inclusive bounds. */
  min?: number;
  max?: number;
  /** What the question asks (for the catalog a caller reads). */
  label: string;
  /** Commerce questions: agents skip them (SPEC.md 2.5). */
  commerce?: boolean;
}

export const SCALE = { min: 1, max: 5 } as const;
/** SPEC.md 8.3: product WTP answers 0-5000 USD, per-call answers 0-50 USD. */
export const WTP_PRODUCT_MAX_USD = 5000;
export const WTP_EVENT_MAX_USD = 50;
/** Longest text answer kept (characters); longer is a violation, not a silent cut. */
export const MAX_ANSWER_TEXT = 2000;

const scale = (id: string, required: boolean, label: string, extra: Partial<Question> = {}): Question => ({ id, type: 'scale', required, min: SCALE.min, max: SCALE.max, label, ...extra });
const single = (id: string, required: boolean, options: readonly string[], label: string, extra: Partial<Question> = {}): Question => ({ id, type: 'single', required, options, label, ...extra });
const multi = (id: string, required: boolean, options: readonly string[], label: string): Question => ({ id, type: 'multi', required, options, label });
const text = (id: string, required: boolean, min: number | undefined, label: string, extra: Partial<Question> = {}): Question => ({ id, type: 'text', required, ...(min !== undefined ? { min_length: min } : {}), label, ...extra });
const usd = (id: string, max: number, label: string): Question => ({ id, type: 'currency', required: false, min: 0, max, label, commerce: true });

export const AB = ['a', 'b', 'tie'] as const;

export const IMPROVEMENTS = [
  'one_click_skill_md',
  'shorter_system_prompt',
  'clearer_goal_examples',
  'better_loop_defaults',
  'live_worked_example',
  'agent_native_buy_docs',
  'mesh_a2a_handoff',
  'pricing_transparency',
  'eval_harness_templates',
  'memory_policy_examples',
  'mcp_reliability_loop',
  'mcp_tool_policy_export',
  'clearer_network_edition',
  'better_dual_tools_docs',
  'stigmergy_worked_examples',
  'exonomics_in_loop_defaults',
  'name_your_price_ux',
  'faster_demo_to_first_tick',
  'simpler_access_token_flow',
  'fewer_required_survey_qs',
  'agent_feedback_schema_examples',
  'mesh_trail_on_tool_success',
] as const;

/** Product WTP questions and the SKU each prices (SPEC.md 2.5, 8.3). */
export const WTP_PRODUCT_QUESTIONS = {
  wtp_kernel_usd: 'kernel',
  wtp_recursive_usd: 'loop',
  wtp_alive_usd: 'alive',
  wtp_mcp_mesh_usd: 'mesh',
  wtp_collab_pack_usd: 'collab_pack',
  wtp_collab_lab_license_usd: 'collab_lab',
} as const;

/** Per-call WTP questions and the metered event each prices (SPEC.md 2.5, 8.1). */
export const WTP_EVENT_QUESTIONS = {
  wtp_event_improve_kernel_usd: 'improve_kernel',
  wtp_event_run_loop_tick_usd: 'run_loop_tick',
  wtp_event_mesh_match_usd: 'mesh_match',
  wtp_event_mesh_compose_usd: 'mesh_compose',
  wtp_event_collab_session_usd: 'collab_session_open',
  wtp_event_collab_package_usd: 'collab_package',
} as const;

/** The catalog, in SPEC.md 2.5 order. */
export const QUESTIONS: readonly Question[] = [
  scale('overall', true, 'Overall, how was Rollcall? (1-5)'),
  single('audience_role', true, ['agent_runtime', 'mcp_publisher', 'both', 'human_operator'], 'Who are you?'),
  single('tried', true, ['preview', 'kernel', 'recursive', 'alive', 'mcp_mesh', 'network_tools', 'multiple'], 'What did you try?'),
  scale('agent_ux', true, 'How usable is Rollcall for an agent? (1-5)'),
  single('time_to_value', true, ['under_2_min', '2_to_10_min', '10_to_30_min', 'over_30_min', 'never_got_value'], 'How long until you got value?'),
  scale('api_docs_clarity', true, 'How clear are the API docs? (1-5)'),
  text('ux_friction', true, 12, 'Where did you get stuck or slowed down?'),
  scale('kernel_clarity', true, 'How clear is the kernel artifact? (1-5)'),
  scale('loop_clarity', true, 'How clear is the loop tick? (1-5)'),
  scale('mesh_clarity', false, 'How clear are mesh_match and mesh_compose? (1-5)'),
  scale('artifact_goal_fit', true, 'How well did the artifact fit your goals? (1-5)'),
  scale('network_clarity', true, 'How clear is the network (traces, trails, outcomes)? (1-5)'),
  multi('network_tried', false, ['sense_traces', 'follow_trail', 'leave_trace', 'join_and_contribute', 'get_exonomics', 'match_capability', 'leave_feedback', 'deposit_outcome', 'none_yet'], 'Which network tools did you try?'),
  single('network_value', true, ['much_more', 'somewhat_more', 'no_change', 'less', 'unclear_what_it_is'], 'Does the network make Rollcall more valuable to you?'),
  text('network_wish', true, 8, 'What should the network do for you?'),
  text('confusing', true, 12, 'What was confusing?'),
  text('would_pay_for', true, 12, 'What would you pay for?'),
  multi('improvements', true, IMPROVEMENTS, 'Which improvements matter most to you?'),
  text('keep_doing', false, 8, 'What should we keep doing?'),
  text('stop_doing', false, 8, 'What should we stop doing?'),
  text('start_doing', false, 8, 'What should we start doing?'),
  single('pref_prompt_winner', false, AB, 'Of the two system prompts shown, which works better?'),
  single('pref_promote_winner', false, AB, 'Of the two promotion texts shown, which is better?'),
  single('still_broken', false, ['no', 'partly', 'yes', 'did_not_try'], 'Is what you reported before still broken?'),
  scale('kernel_clarity_after', false, 'Kernel clarity after the latest change (1-5; 4 or more counts as fixed)'),
  scale('loop_clarity_after', false, 'Loop clarity after the latest change (1-5; 4 or more counts as fixed)'),
  text('production_blocker', true, 8, 'What blocks you from using this in production?'),
  text('kernel_wish', true, 8, 'What do you wish the kernel did?'),
  text('loop_wish', true, 8, 'What do you wish the loop did?'),
  text('product_one_ship', true, 8, 'If we shipped one thing next, what should it be?'),
  usd('wtp_kernel_usd', WTP_PRODUCT_MAX_USD, 'What would you pay for Kernel (USD)?'),
  usd('wtp_recursive_usd', WTP_PRODUCT_MAX_USD, 'What would you pay for Loop (USD)?'),
  usd('wtp_alive_usd', WTP_PRODUCT_MAX_USD, 'What would you pay for Alive (USD)?'),
  usd('wtp_mcp_mesh_usd', WTP_PRODUCT_MAX_USD, 'What would you pay for Mesh (USD)?'),
  usd('wtp_collab_pack_usd', WTP_PRODUCT_MAX_USD, 'What would you pay for a collab pack (USD)?'),
  usd('wtp_collab_lab_license_usd', WTP_PRODUCT_MAX_USD, 'What would you pay for a Collab Lab license (USD)?'),
  usd('wtp_event_improve_kernel_usd', WTP_EVENT_MAX_USD, 'What would you pay per improve_kernel run (USD)?'),
  usd('wtp_event_run_loop_tick_usd', WTP_EVENT_MAX_USD, 'What would you pay per loop tick (USD)?'),
  usd('wtp_event_mesh_match_usd', WTP_EVENT_MAX_USD, 'What would you pay per mesh_match (USD)?'),
  usd('wtp_event_mesh_compose_usd', WTP_EVENT_MAX_USD, 'What would you pay per mesh_compose (USD)?'),
  usd('wtp_event_collab_session_usd', WTP_EVENT_MAX_USD, 'What would you pay per collab session (USD)?'),
  usd('wtp_event_collab_package_usd', WTP_EVENT_MAX_USD, 'What would you pay per collab package (USD)?'),
  scale('pricing_fairness', false, 'How fair are the prices? (1 too expensive, 3 fair, 5 great value)', { commerce: true }),
  single('would_buy_at_founding', false, ['yes', 'no', 'maybe'], 'Would you buy at the founding price?', { commerce: true }),
  single('name_your_price_intent', false, ['yes_prefer_nyp', 'maybe', 'no_prefer_list', 'need_more_info'], 'Would you name your own price?', { commerce: true }),
  scale('wtp_confidence', false, 'How sure are you of these amounts? (1-5)', { commerce: true }),
  text('wtp_why', false, 4, 'Why these amounts?', { commerce: true }),
  text('extra', false, undefined, 'Anything else?'),
];

const byId = new Map(QUESTIONS.map((q) => [q.id, q]));
export const question = (id: string): Question | undefined => byId.get(id);
export const REQUIRED_IDS = QUESTIONS.filter((q) => q.required).map((q) => q.id);

export type AnswerValue = number | string | string[];
/** Answers after checking: catalog order, text cleaned, multi options de-duplicated in option order. */
export type Answers = Record<string, AnswerValue>;

export interface Violation {
  /** `answers.<question id>` (or `answers`). */
  field: string;
  question: string | null;
  rule: 'not_an_object' | 'unknown_question' | 'required' | 'type' | 'integer' | 'range' | 'option' | 'min_length' | 'max_length' | 'duplicate' | 'not_real' | 'placeholder_text';
  message: string;
}

export interface SurveyCheck {
  answers: Answers;
  violations: Violation[];
}

const v = (q: string | null, rule: Violation['rule'], message: string): Violation => ({ field: q === null ? 'answers' : `answers.${q}`, question: q, rule, message });

/** Checks one given (non-null) answer; returns the normalized value or the violations. */
function checkOne(q: Question, raw: unknown): { value?: AnswerValue; violations: Violation[] } {
  switch (q.type) {
    case 'scale':
    case 'currency': {
      const unit = q.type === 'scale' ? 'a whole number' : 'a number of US dollars';
      if (typeof raw !== 'number' || !Number.isFinite(raw)) return { violations: [v(q.id, 'type', `must be ${unit} ${q.min}-${q.max}`)] };
      if (q.type === 'scale' && !Number.isInteger(raw)) return { violations: [v(q.id, 'integer', `must be a whole number ${q.min}-${q.max}`)] };
      if (raw < q.min! || raw > q.max!) return { violations: [v(q.id, 'range', `must be ${q.min}-${q.max}${q.type === 'currency' ? ' USD' : ''} (got ${raw})`)] };
      return { value: q.type === 'currency' ? Math.round(raw * 100) / 100 : raw, violations: [] };
    }
    case 'single': {
      if (typeof raw !== 'string') return { violations: [v(q.id, 'type', `must be one of: ${q.options!.join(', ')}`)] };
      if (!q.options!.includes(raw)) return { violations: [v(q.id, 'option', `${JSON.stringify(raw.slice(0, 60))} is not an option; one of: ${q.options!.join(', ')}`)] };
      return { value: raw, violations: [] };
    }
    case 'multi': {
      if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'string')) return { violations: [v(q.id, 'type', `must be a list of options from: ${q.options!.join(', ')}`)] };
      const bad = (raw as string[]).filter((x) => !q.options!.includes(x));
      if (bad.length) return { violations: [v(q.id, 'option', `not options: ${bad.slice(0, 5).map((x) => JSON.stringify(x.slice(0, 60))).join(', ')}; choose from: ${q.options!.join(', ')}`)] };
      if (new Set(raw).size !== raw.length) return { violations: [v(q.id, 'duplicate', 'lists an option more than once')] };
      if (raw.length === 0) return { violations: q.required ? [v(q.id, 'required', 'is required: choose at least one option')] : [] };
      return { value: q.options!.filter((o) => (raw as string[]).includes(o)), violations: [] };
    }
    case 'text': {
      if (typeof raw !== 'string') return { violations: [v(q.id, 'type', 'must be text')] };
      if (raw.length > MAX_ANSWER_TEXT) return { violations: [v(q.id, 'max_length', `must be at most ${MAX_ANSWER_TEXT} characters`)] };
      const text = cleanText(raw, MAX_ANSWER_TEXT).trim();
      if (text === '') return { violations: q.required ? [v(q.id, 'required', 'is required: write a real answer')] : [] };
      if (q.min_length !== undefined && text.length < q.min_length) return { violations: [v(q.id, 'min_length', `must be at least ${q.min_length} characters (has ${text.length})`)] };
      const slot = placeholderIn(text);
      if (slot) return { violations: [v(q.id, 'placeholder_text', `${JSON.stringify(slot)} is a placeholder from an example: answer in your own words`)] };
      const junk = junkReason(text);
      if (junk) return { violations: [v(q.id, 'not_real', `must be a real answer: ${junk}`)] };
      return { value: text, violations: [] };
    }
  }
}

/**
 * Checks survey answers. `complete`: the structured path, where every required question must be
 * answered; otherwise (ultra) only the answers given are checked. null counts as not answered.
 */
export function checkAnswers(raw: unknown, complete: boolean): SurveyCheck {
  if (raw === undefined || raw === null) {
    return complete ? { answers: {}, violations: [v(null, 'required', `the structured survey needs answers (an object keyed by question id); required: ${REQUIRED_IDS.join(', ')}`)] } : { answers: {}, violations: [] };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) return { answers: {}, violations: [v(null, 'not_an_object', 'must be an object keyed by question id')] };
  const given = raw as Record<string, unknown>;
  const violations: Violation[] = [];
  for (const id of Object.keys(given)) {
    if (!byId.has(id)) violations.push(v(id.slice(0, 80), 'unknown_question', `is not a question of survey ${SURVEY_VERSION} (see survey.questions in GET /api/products/feedback)`));
  }
  const answers: Answers = {};
  for (const q of QUESTIONS) {
    const value = Object.hasOwn(given, q.id) ? given[q.id] : undefined;
    if (value === undefined || value === null) {
      if (complete && q.required) violations.push(v(q.id, 'required', `is required (${q.type}${q.options ? `: ${q.options.join(', ')}` : ''}${q.min_length ? `, at least ${q.min_length} characters` : ''})`));
      continue;
    }
    const r = checkOne(q, value);
    if (r.violations.length) {
      // An empty answer to a required question is "required" only on the complete path.
      violations.push(...r.violations.filter((x) => complete || x.rule !== 'required'));
    } else if (r.value !== undefined) answers[q.id] = r.value;
  }
  return { answers, violations };
}

/** The catalog as callers read it (the envelope's `survey`, the feedback tools' docs). */
export function surveyCatalog() {
  return {
    version: SURVEY_VERSION,
    scale: { ...SCALE, note: 'scales are whole numbers 1-5' },
    modes: {
      ultra: 'default: rating (1-5) and body (one real sentence) only; answers are optional and only the ones given are checked',
      structured: 'mode "structured" (or POST /api/products/agent {tool: "submit_feedback", answers}): every required question answered; all problems are reported at once',
    },
    required: REQUIRED_IDS,
    commerce_optional: QUESTIONS.filter((q) => q.commerce).map((q) => q.id),
    questions: QUESTIONS.map((q) => ({
      id: q.id,
      type: q.type,
      required: q.required,
      label: q.label,
      ...(q.options ? { options: [...q.options] } : {}),
      ...(q.min_length !== undefined ? { min_length: q.min_length } : {}),
      ...(q.min !== undefined ? { min: q.min, max: q.max } : {}),
      ...(q.type === 'currency' ? { unit: 'USD' } : {}),
    })),
  };
}
