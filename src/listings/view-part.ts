// The listing view is a read model (src/registry/listing-view.ts) assembled from each domain's
// part. A domain that shows something on a listing implements this interface beside its data,
// and the view lists it with one line; the view's dependency on domains runs one way.
import type { Config } from '../config.ts';
import type { Executor } from '../platform/db/executor.ts';
import type { ListingRow } from './store.ts';

export interface ViewContext {
  now: Date;
  config: Config;
}

export interface ListingViewPart<State, Fields extends object> {
  /** The part's state for many listings in one query (the active list shows a thousand at once). */
  load(ex: Executor, ids: string[]): Promise<Map<string, State>>;
  /** The fields this part adds to one listing's view; `state` is undefined when it has none yet. */
  fields(row: ListingRow, state: State | undefined, v: ViewContext): Fields;
}
