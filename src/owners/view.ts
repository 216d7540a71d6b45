// The owners' part of the listing view: whether an owner has proved control (a lapsed claim is
// not a claim). Nothing else of the owner is shown.
import type { ListingViewPart } from '../listings/view-part.ts';
import { ownersOf, type OwnerRow } from './store.ts';

export const ownersViewPart: ListingViewPart<OwnerRow, { claimed: boolean }> = {
  load: ownersOf,
  fields: (_row, owner) => ({ claimed: owner !== undefined && owner.lapsed_at === null }),
};
