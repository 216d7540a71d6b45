// The connector playbook (SPEC.md 1.10, 2.8): one outreach partner per UTC day for the operator,
// with a draft they send themselves, and the operator-only prep that marks it prepared and refills
// a listed partner (connector_onboard, SPEC.md 8.2).
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { AppError, conflict } from '../platform/errors.ts';
import { DAY_MS, iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { cleanText } from '../listings/text.ts';
import { countActive, findListingById } from '../listings/store.ts';
import { scrubPersonal } from '../feed/public.ts';
import { postToInbox } from '../inbox/store.ts';
import { grantFor, type RefillResult } from '../metering/grants.ts';
import { nextReset, utcDay } from '../metering/day.ts';
import { subjectOfListing } from '../metering/caller.ts';
import { loadPartnersFile, type PartnersFile } from './partners-file.ts';
import { DEFAULT_TRAITS, maxLikeness, type MatchedTrait, type Trait } from './traits.ts';
import { GATE, gatherCandidates, MAX_LISTINGS, rankCandidates, type Candidate } from './candidates.ts';
import { draftFor, type Draft } from './draft.ts';
import { automation, DO_NOT_RESEARCH, DO_NOT_SEND, laws, PLAYBOOK_VERSION, PREP_PATH, STEPS } from './playbook.ts';
import { insertPickIfNew, markNotified, markPrepped, picksBetween, readPick, type PickRow } from './store.ts';

/** Candidates shown after the pick. */
const QUEUE_SIZE = 5;
/** Past days shown in history. */
export const HISTORY_DAYS = 30;

/** Everything `today` shows, as computed once at pick time (stored in the pick row). */
interface StoredPick {
  partner: { id: string; name: string; kind: string; role: string; engage: string; source: Candidate['source'] } | null;
  hirey_likeness: number;
  live_score: number;
  traits: MatchedTrait[];
  why: string;
  draft: Draft | null;
  queue_after: { id: string; name: string; score: number; hirey_likeness: number; live_score: number; gate_passed: boolean }[];
  candidates: number;
  skipped_recent: number;
}

type Status = 'drafted' | 'prepped' | 'research';
const statusOf = (row: PickRow): Status => (row.research ? 'research' : row.prepped_at ? 'prepped' : 'drafted');

const dayMinus = (day: string, days: number) => utcDay(new Date(new Date(`${day}T00:00:00.000Z`).getTime() - days * DAY_MS));

function why(c: Candidate | undefined, skipped: number, repeatDays: number): string {
  if (!c) return skipped ? `No candidate left: all ${skipped} were picked in the last ${repeatDays} days. A research day: add partners to the partners file.` : 'No candidate yet: no Live listing and no partners file entry. A research day: add partners to the partners file.';
  const traits = c.traits.length ? c.traits.map((t) => `${t.trait} (+${t.weight})`).join(', ') : 'none of the ideal-partner traits';
  const base = `hirey_likeness ${c.hirey_likeness} from ${traits}; live score ${c.live_score}${c.listing_id ? ' from its latest probe' : c.source === 'partners_file' ? ' from the partners file' : ''}.`;
  if (c.passes) return `The best candidate that passes the quality gate: ${base}`;
  const short = [
    c.hirey_likeness < GATE.min_hirey_likeness ? `hirey_likeness below ${GATE.min_hirey_likeness}` : null,
    c.live_score < GATE.min_live_score ? `live score below ${GATE.min_live_score}` : null,
  ].filter(Boolean);
  return `A research day: even the best candidate is below the quality gate (${short.join(' and ')}): ${base}`;
}

/** Today's pick: the stored one, or picked now and stored (the first instance to store it wins). */
async function ensurePick(ctx: Ctx, day: string, file: PartnersFile, traits: readonly Trait[]): Promise<PickRow> {
  const existing = await readPick(ctx.db.kysely, day);
  if (existing) return existing;
  const repeatDays = ctx.config.connectorRepeatDays;
  const recent = new Set((await picksBetween(ctx.db.kysely, dayMinus(day, repeatDays), day)).flatMap((p) => (p.partner_key ? [p.partner_key] : [])));
  const all = await gatherCandidates(ctx.db.kysely, file.partners, traits);
  const ranked = rankCandidates(all.filter((c) => !recent.has(c.key)));
  const chosen = ranked[0];
  const research = !chosen?.passes;
  const pick: StoredPick = {
    partner: chosen ? { id: chosen.id, name: chosen.name, kind: chosen.kind, role: chosen.role, engage: chosen.engage, source: chosen.source } : null,
    hirey_likeness: chosen?.hirey_likeness ?? 0,
    live_score: chosen?.live_score ?? 0,
    traits: chosen?.traits ?? [],
    why: why(chosen, all.length - ranked.length, repeatDays),
    draft: chosen && !research ? draftFor(ctx.config.publicBaseUrl, chosen) : null,
    queue_after: ranked.slice(1, 1 + QUEUE_SIZE).map((c) => ({ id: c.id, name: c.name, score: c.score, hirey_likeness: c.hirey_likeness, live_score: c.live_score, gate_passed: c.passes })),
    candidates: all.length,
    skipped_recent: all.length - ranked.length,
  };
  const now = iso(ctx.clock.now());
  return insertPickIfNew(ctx.db.kysely, {
    day,
    partner_key: chosen?.key ?? null,
    partner_id: chosen?.id ?? null,
    partner_name: chosen?.name ?? null,
    listing_id: chosen?.listing_id ?? null,
    hirey_likeness: pick.hirey_likeness,
    research: research ? 1 : 0,
    pick: JSON.stringify(pick),
    created_at: now,
    updated_at: now,
    notified_at: null,
    prepped_at: null,
    prep_note: null,
  });
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the call carries the operator's ADMIN_TOKEN as its Bearer (compared in constant time). */
function isOperator(ctx: Ctx): boolean {
  const expected = ctx.config.adminToken;
  const given = ctx.caller.bearer;
  return expected !== undefined && given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

function requireOperator(ctx: Ctx): void {
  if (ctx.config.adminToken === undefined) {
    throw new AppError(403, 'operator_routes_disabled', 'operator routes are disabled on this deployment: the operator sets ADMIN_TOKEN to enable them');
  }
  if (!isOperator(ctx)) {
    throw new AppError(401, 'unauthorized', 'this route is for the operator: send Authorization: Bearer <ADMIN_TOKEN>').withHeaders({ 'www-authenticate': 'Bearer realm="rollcall-operator"' });
  }
}

function prepNote(ctx: Ctx, row: PickRow): string {
  if (row.research) return 'A research day: nothing to prepare or send. Look into the pick and the queue, and improve the partners file.';
  if (row.prepped_at) return row.prep_note ? `Prepared at ${row.prepped_at}: ${row.prep_note}` : `Prepared at ${row.prepped_at}; the operator sends the draft by hand.`;
  const how = `POST ${ctx.config.publicBaseUrl}${PREP_PATH} with Authorization: Bearer <ADMIN_TOKEN>`;
  return ctx.config.adminToken ? `Not prepared yet: the operator prepares it with ${how}.` : `Not prepared yet; operator routes are disabled until ADMIN_TOKEN is set (then ${how}).`;
}

/** The whole SPEC.md 2.8 answer for today's stored pick. */
async function dailyAnswer(ctx: Ctx, row: PickRow, file: PartnersFile, traits: readonly Trait[], traitsSource: 'default' | 'partners_file') {
  const now = ctx.clock.now();
  const pick = JSON.parse(row.pick) as StoredPick;
  const status = statusOf(row);
  const history = await picksBetween(ctx.db.kysely, dayMinus(row.day, HISTORY_DAYS), row.day);
  const active = await countActive(ctx.db.kysely);
  const base = ctx.config.publicBaseUrl;
  return {
    ok: true as const,
    version: PLAYBOOK_VERSION,
    playbook: {
      name: 'Connector daily pick',
      goal: 'One warm first touch a day with a partner who looks like the operator\'s ideal partner and is Live and healthy.',
      cadence: 'one pick per UTC day; at most one connector first touch per UTC day',
      steps: STEPS,
      gate: GATE,
      scoring: {
        hirey_likeness: 'the sum of the weights of the ideal-partner traits whose keywords appear, as whole words, in the candidate\'s own text (a listing\'s name, description and skills or tools; a partners file entry\'s name, kind, role, about and tags)',
        live_score: 'probe score / 10 for a Live listing; a partners file entry without a listing gives its own live_score (0 when absent)',
        order: 'gate passers first, then by hirey_likeness + live score, then by id',
      },
      ideal_traits: traits,
      max_hirey_likeness: maxLikeness(traits),
      traits_source: traitsSource,
      repeat_after_days: ctx.config.connectorRepeatDays,
      sources: {
        partners_file: { file: file.file, status: file.status, partners: file.partners.length, ...(file.error ? { error: file.error } : {}) },
        live_listings: active.agent + active.mcp,
        live_listings_considered: Math.min(active.agent + active.mcp, MAX_LISTINGS),
      },
    },
    today: {
      day: row.day,
      status,
      partner: pick.partner ? { id: pick.partner.id, name: scrubPersonal(pick.partner.name), kind: pick.partner.kind, role: scrubPersonal(pick.partner.role), engage: scrubPersonal(pick.partner.engage), status, source: pick.partner.source } : null,
      hirey_likeness: pick.hirey_likeness,
      live_score: pick.live_score,
      gate: { ...GATE, passed: !row.research },
      traits: pick.traits,
      why: pick.why,
      action: row.research
        ? { step: 'research', say: 'No first touch today: research the pick and the queue instead.', do_not: DO_NOT_RESEARCH, draft: null }
        : {
            step: 'first_touch',
            say: row.prepped_at ? 'Prepared: send the draft yourself, from your own mailbox, once.' : 'Review the draft, prepare it, then send it yourself, once.',
            do_not: DO_NOT_SEND,
            draft: pick.draft ? { subject: pick.draft.subject, body: pick.draft.body, demo_link: pick.draft.demo_link } : null,
          },
      queue_after: pick.queue_after.map((q) => ({ ...q, name: scrubPersonal(q.name) })),
      candidates: pick.candidates,
      skipped_recent: pick.skipped_recent,
    },
    laws: laws(ctx.config.connectorRepeatDays),
    prep: { already: row.prepped_at !== null, operator_notified: row.notified_at !== null, note: prepNote(ctx, row), prepped_at: row.prepped_at, notified_at: row.notified_at },
    automation: automation(base, ctx.config.adminToken !== undefined, nextReset(now)),
    history: history.map((h) => ({ day: h.day, partner_id: h.partner_id, partner_name: h.partner_name === null ? null : scrubPersonal(h.partner_name), hirey_likeness: h.hirey_likeness, status: statusOf(h), prepped_at: h.prepped_at })),
    updated_at: row.updated_at,
  };
}

/** The partners file and the traits in force (the file's, else the defaults); a bad file is logged. */
async function sources(ctx: Ctx): Promise<{ file: PartnersFile; traits: readonly Trait[]; traitsSource: 'default' | 'partners_file' }> {
  const file = await loadPartnersFile(ctx.config.dataDir);
  if (file.status === 'invalid') ctx.log.error({ partners_file: file.file, reason: file.error }, 'connector partners file skipped: it is malformed');
  return file.traits ? { file, traits: file.traits, traitsSource: 'partners_file' } : { file, traits: DEFAULT_TRAITS, traitsSource: 'default' };
}

const historyItem = z.looseObject({ day: z.string(), partner_id: z.string().nullable(), partner_name: z.string().nullable(), hirey_likeness: z.number(), status: z.string(), prepped_at: z.string().nullable() });
const dailyOutput = z.looseObject({
  ok: z.literal(true),
  version: z.string(),
  playbook: z.looseObject({}),
  today: z.looseObject({
    day: z.string(),
    partner: z.looseObject({ id: z.string(), name: z.string(), kind: z.string(), role: z.string(), engage: z.string(), status: z.string() }).nullable(),
    hirey_likeness: z.number(),
    traits: z.array(z.looseObject({ trait: z.string(), weight: z.number() })),
    why: z.string(),
    action: z.looseObject({ step: z.string(), do_not: z.array(z.string()), draft: z.looseObject({ subject: z.string(), body: z.string(), demo_link: z.string() }).nullable() }),
    queue_after: z.array(z.looseObject({ id: z.string(), name: z.string(), score: z.number() })),
  }),
  laws: z.array(z.string()),
  prep: z.looseObject({ already: z.boolean(), operator_notified: z.boolean(), note: z.string() }),
  automation: z.looseObject({}),
  history: z.array(historyItem),
  updated_at: z.string(),
});

export const connectorDaily = defineOperation({
  name: 'connector_daily',
  tool: false, // the operator's playbook (GET /api/products/connectors/daily), not a tool agents call
  title: 'Connector daily pick',
  // The day's first call stores the pick; the operator's read records that they were told.
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  description:
    'Today\'s connector pick for the operator: one outreach partner per UTC day from the partners file and the Live listings, scored by hirey_likeness and live score, with a draft carrying exactly two links (none on a research day), the laws, the prep state and the history of past days. Rollcall never sends anything.',
  input: z.object({}),
  output: dailyOutput,
  handler: async (ctx: Ctx) => {
    const day = utcDay(ctx.clock.now());
    const { file, traits, traitsSource } = await sources(ctx);
    let row = await ensurePick(ctx, day, file, traits);
    if (isOperator(ctx) && row.notified_at === null) {
      await markNotified(ctx.db.kysely, day, iso(ctx.clock.now()));
      row = (await readPick(ctx.db.kysely, day)) ?? row;
    }
    return dailyAnswer(ctx, row, file, traits, traitsSource);
  },
});

export const connectorPrep = defineOperation({
  name: 'connector_prep',
  tool: false, // operator only (ADMIN_TOKEN), never a tool
  title: 'Prepare today\'s connector pick',
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  description:
    'Operator only (Authorization: Bearer <ADMIN_TOKEN>): marks today\'s connector pick prepared. A listed partner gets the connector_onboard refill and a note in its talk inbox, once. Disabled (403) when ADMIN_TOKEN is unset; a research day has nothing to prepare (409).',
  input: z.object({
    note: z.string().max(500, 'must be at most 500 characters').optional().describe('A short note on the preparation; shown publicly with the pick (emails and addresses masked).'),
  }),
  output: dailyOutput.extend({ prepared_now: z.boolean(), refill: z.looseObject({}).nullable(), inbox_message_id: z.string().nullable() }),
  handler: async (ctx: Ctx, input) => {
    requireOperator(ctx);
    const clockNow = ctx.clock.now();
    const now = iso(clockNow);
    const day = utcDay(clockNow);
    const { file, traits, traitsSource } = await sources(ctx);
    const before = await ensurePick(ctx, day, file, traits);
    if (before.research) throw conflict('research_day', `${day} is a research day (below the quality gate): there is no draft to prepare`);
    const note = input.note === undefined ? null : scrubPersonal(cleanText(input.note, 500)) || null;
    const done = await inTransaction(ctx.db.kysely, async (trx) => {
      const won = await markPrepped(trx, day, now, note);
      if (!won) return { prepared_now: false, refill: null as RefillResult | null, inbox_message_id: null as string | null };
      const partner = won.listing_id ? await findListingById(trx, won.listing_id) : undefined;
      if (!partner) return { prepared_now: true, refill: null, inbox_message_id: null };
      // The refill and the partner's note are written with the preparation: all or nothing, once.
      const refill = await grantFor(trx, subjectOfListing(partner), 'connector_onboard', clockNow);
      const message = await postToInbox(
        trx,
        {
          listing_id: partner.id,
          kind: 'connector',
          text: `Rollcall's operator picked your listing as the connector partner of ${day} and will reach out through your own channels.${refill.granted ? ` You got one more free unit of ${refill.events.join(' and ')} today (connector_onboard refill).` : ''}`,
          data: { day, refill_granted: refill.granted, events: refill.events },
        },
        now,
      );
      return { prepared_now: true, refill, inbox_message_id: message.id };
    });
    const row = (await readPick(ctx.db.kysely, day)) ?? before;
    return { ...(await dailyAnswer(ctx, row, file, traits, traitsSource)), ...done };
  },
});

