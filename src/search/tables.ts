// The search domain's table: every query asked (text, hit count, which door or tool), never who
// asked. list_opportunities reads it later for demand that found little. Only src/search/ may import this.
import type { Generated } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface SearchQueriesTable {
  id: Generated<number>;
  at: string;
  text: string;
  hits: number;
  tool: string;
}

export type SearchTables = { search_queries: SearchQueriesTable };

export const searchTables = (ex: Executor) => typed<SearchTables>(ex);
