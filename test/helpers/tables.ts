// Tests look at the database directly, across every domain's tables (the source may not: each
// domain sees only its own). This is the union of them all.
import type { Kysely } from 'kysely';
import type { ChangesTable } from '../../src/platform/db/changes.ts';
import type { JobTables } from '../../src/platform/jobs/tables.ts';
import type { A2aTables } from '../../src/a2a/tables.ts';
import type { AccessTables } from '../../src/access/tables.ts';
import type { CatalogTables } from '../../src/catalog/tables.ts';
import type { CollabTables } from '../../src/collab/tables.ts';
import type { ConnectorTables } from '../../src/connectors/tables.ts';
import type { FeedTables } from '../../src/feed/tables.ts';
import type { FeedbackTables } from '../../src/feedback/tables.ts';
import type { FunnelTables } from '../../src/funnel/tables.ts';
import type { IdentityTables } from '../../src/identity/tables.ts';
import type { InboxTables } from '../../src/inbox/tables.ts';
import type { KernelTables } from '../../src/kernel/tables.ts';
import type { ListingTables } from '../../src/listings/tables.ts';
import type { MeshTables } from '../../src/mesh/tables.ts';
import type { MeteringTables } from '../../src/metering/tables.ts';
import type { OwnerTables } from '../../src/owners/tables.ts';
import type { ProbeTables } from '../../src/probe/tables.ts';
import type { SearchTables } from '../../src/search/tables.ts';
import type { TalkTables } from '../../src/talk/tables.ts';
import type { TraceTables } from '../../src/traces/tables.ts';
import type { EconomicsTables } from '../../src/economics/tables.ts';
import type { UsageTables } from '../../src/platform/usage/tables.ts';
import type { BudgetTables } from '../../src/platform/budget/tables.ts';
import type { Db } from '../../src/platform/db/dialect.ts';

export type AllTables = { changes: ChangesTable } & JobTables & A2aTables & AccessTables & CatalogTables & CollabTables & ConnectorTables & FeedTables & FeedbackTables & FunnelTables & IdentityTables & InboxTables & KernelTables & ListingTables & MeshTables & MeteringTables & OwnerTables & ProbeTables & SearchTables & TalkTables & TraceTables & EconomicsTables & UsageTables & BudgetTables;

export const allTables = (db: Db) => db.kysely as unknown as Kysely<AllTables>;
