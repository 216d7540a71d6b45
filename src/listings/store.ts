// Listing storage: identity, what the listing says of itself, lane and rank. Every write appends
// to the change feed in the same transaction, so followers see it. Other domains change a listing
// only through these functions; what they own of it (probe results, presence, funnel state) lives
// in their own tables, and their share of the rank arrives as a named rank part.
// One file per database operation in store/, each with its test beside it; this index is what
// other folders import.
export type { Lane } from './tables.ts';
export { LISTING_ENTITY, type ListingRow } from './store/row.ts';
export { findListingById, findListingByUrl, findListingsByIds, lockListing } from './store/find-listing.ts';
export { findListingBySpelling, spellingOwnedByOther } from './store/find-listing-by-spelling.ts';
export { claimSpellings, claimSpellingsPart, heldByOther, spellingsHeldPart, type SpellingsHeld } from './store/claim-spellings.ts';
export { markDuplicate, markDuplicateParts } from './store/mark-duplicate.ts';
export { markProbing, markProbingParts } from './store/mark-probing.ts';
export { findListingsByName } from './store/find-listings-by-name.ts';
export { insertListingIfNew, type NewListing, type WithNewListing } from './store/insert-listing.ts';
export { updateListing, lockListingForUpdate, lockedListingPart, type ListingPatch, type LockedListing } from './store/update-listing.ts';
export { countActive, countListings } from './store/count-listings.ts';
export { activeOrder, rowsInOrder } from './store/active-order.ts';
export { activeLiveSince } from './store/active-live-since.ts';
export { saveActiveSnapshot } from './store/save-active-snapshot.ts';
export { readActiveSnapshot } from './store/read-active-snapshot.ts';
export { pruneActiveSnapshots } from './store/prune-active-snapshots.ts';
export { holdName, namesHeldPart, nameHolder, protectName, releaseName, type NameProtection, type NamesHeld } from './store/listing-names.ts';
