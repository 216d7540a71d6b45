// The public shape of a listing (SPEC.md 2.1), a read model assembled from the listings row and
// each domain's view part. contact_email and other private columns never leave through here.
// A domain that shows something on a listing adds its part to PARTS: one line.
import { z } from 'zod';
import type { Executor } from '../platform/db/executor.ts';
import type { Ctx } from '../platform/operation.ts';
import type { ListingRow } from '../listings/store.ts';
import type { ListingViewPart, ViewContext } from '../listings/view-part.ts';
import { categoryLabel } from '../listings/categories.ts';
import { probeViewPart } from '../probe/view.ts';
import { talkViewPart } from '../talk/view.ts';
import { funnelViewPart } from '../funnel/view.ts';
import { ownersViewPart } from '../owners/view.ts';
import { nextStep } from '../platform/next-step.ts';

const PARTS = [probeViewPart, talkViewPart, funnelViewPart, ownersViewPart] as const;

type FieldsOf<P> = P extends { fields(...args: never[]): infer F } ? F : never;
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type PartFields = Intersect<FieldsOf<(typeof PARTS)[number]>>;

export const NAME_WITHHELD_WHY =
  'Its card names it as another claimed listing, or Rollcall, is named (compared without case, spacing, invisible characters and look-alike letters): it shows its host until the name is its own. Its owner can claim it and set a name of its own.';

function coreFields(row: ListingRow) {
  return {
    listing_id: row.id,
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    url: row.url,
    category_id: row.category_id,
    category_label: categoryLabel(row.category_id),
    lane: row.lane,
    lane_reason: row.lane_reason,
    // Only on a duplicate: the listing that already reaches the same endpoint.
    ...(row.duplicate_of ? { duplicate_of: row.duplicate_of } : {}),
    // Only when its card's name is another listing's (or Rollcall's): it shows its host instead, and says why.
    ...(row.name_withheld !== null && row.owner_name === null ? { name_withheld: { name: row.name_withheld, why: NAME_WITHHELD_WHY } } : {}),
    ...(row.kind === 'agent' ? { agent_card_url: row.url } : { remote_url: row.url }),
    website: row.website,
  };
}

/** The listing view's schema for tool results (the fields a client may rely on; more may come). */
export const listingViewOutput = {
  id: z.string(),
  listing_id: z.string(),
  kind: z.enum(['agent', 'mcp']),
  name: z.string(),
  url: z.string(),
  lane: z.enum(['queued', 'probing', 'active', 'failed', 'dormant']),
  lane_reason: z.string().nullable(),
  claimed: z.boolean(),
  next: z.string(),
  next_step: z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() }),
};

export type ListingView = ReturnType<typeof coreFields> & PartFields & { rank: number; created_at: string; updated_at: string };

export const viewContext = (ctx: Pick<Ctx, 'clock' | 'config'>): ViewContext => ({ now: ctx.clock.now(), config: ctx.config });

/** The views of `rows`, in their order, each part loaded once for all of them. */
export async function listingViews(ex: Executor, rows: ListingRow[], v: ViewContext): Promise<ListingView[]> {
  const ids = rows.map((r) => r.id);
  const states = await Promise.all(PARTS.map((part) => part.load(ex, ids)));
  return rows.map((row) => assemble(row, (i) => states[i]!.get(row.id), v));
}

function assemble(row: ListingRow, stateOf: (part: number) => unknown, v: ViewContext): ListingView {
  const parts = PARTS.map((part, i) => (part as ListingViewPart<unknown, object>).fields(row, stateOf(i), v));
  return claimFirst(Object.assign(coreFields(row), ...parts, { rank: row.rank, created_at: row.created_at, updated_at: row.updated_at }) as ListingView);
}

const CLAIM_WHY =
  'Live and unclaimed: its owner claims it first (claim_listing answers a proof and where to put it: a file on the server, a DNS TXT record or the card; verify_claim then answers the owner token once). With the token the demo is its own and feedback takes a founding seat.';

/**
 * The path is list -> Live -> claim -> demo -> feedback -> seat: while a Live listing is unclaimed
 * its next step is the claim, whatever the funnel would suggest after it (SPEC's `next` and
 * `complete_founding_path` stay as they are).
 */
function claimFirst(view: ListingView): ListingView {
  if (view.lane !== 'active' || view.claimed || 'duplicate_of' in view) return view;
  return { ...view, next_step: nextStep('claim_listing', { listing_id: view.id }, CLAIM_WHY) };
}

export async function listingView(ex: Executor, row: ListingRow, v: ViewContext): Promise<ListingView> {
  return (await listingViews(ex, [row], v))[0]!;
}

/**
 * The view of a listing its caller has just created: no part has state for it yet (the parts'
 * rows are written by later probes, check-ins and demos), so nothing is read. On PostgreSQL the
 * three reads were a fifth of a publish's round trips; the view also matches the returned row even
 * when a probe starts meanwhile.
 */
export const newListingView = (row: ListingRow, v: ViewContext): ListingView => assemble(row, () => undefined, v);

/**
 * A listing as the publish and status answers show it: the view without the ready demo request
 * and the deal, which the active list's rows carry (SPEC 2.2) and `take_demo_get`, `next` and
 * get_founding_deal point at. Agents poll the status until Live; each poll is a few KB, not ten,
 * and no answer holds the demo's curl twice.
 */
export function statusView(view: ListingView) {
  const { take_demo: _demo, deal: _deal, ...status } = view;
  return status;
}
