// The owners' part of the listing view: whether an owner has proved control (a lapsed claim is
// not a claim) and, for 30 days after a claim replaced an earlier owner, when and by which method
// (so the listing's users can tell a new hand holds it). Nothing else of the owner is shown.
import type { ListingViewPart } from '../listings/view-part.ts';
import { OWNER_CHANGE_SHOWN_MS } from './rules.ts';
import { ownersOf, type ClaimMethod, type OwnerRow } from './store.ts';

export interface OwnerChange {
  at: string;
  method: ClaimMethod;
}

export const ownersViewPart: ListingViewPart<OwnerRow, { claimed: boolean; owner_changed?: OwnerChange }> = {
  load: ownersOf,
  fields: (_row, owner, v) => {
    const claimed = owner !== undefined && owner.lapsed_at === null;
    const changed = claimed && owner.changed_at !== null && v.now.getTime() - Date.parse(owner.changed_at) < OWNER_CHANGE_SHOWN_MS;
    return changed ? { claimed, owner_changed: { at: owner.changed_at!, method: owner.method } } : { claimed };
  },
};
