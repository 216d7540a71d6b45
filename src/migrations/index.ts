// The schema history, in order. It spans every domain's tables, so it lives with the app's
// assembly, not in platform (which knows no domain) nor in one domain. Append only.
import type { Migration } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';
import { m0001 } from './0001_listings_and_changes.ts';
import { m0002 } from './0002_probe_details.ts';
import { m0003 } from './0003_jobs_history_snapshots.ts';
import { m0004 } from './0004_domain_tables.ts';
import { m0005 } from './0005_job_fairness.ts';
import { m0006 } from './0006_listing_identity.ts';
import { m0007 } from './0007_identity.ts';
import { m0008 } from './0008_catalog.ts';
import { m0009 } from './0009_feed_events.ts';
import { m0010 } from './0010_search_queries.ts';
import { m0011 } from './0011_jobs_claim_order.ts';
import { m0012 } from './0012_access_metering_traces.ts';
import { m0013 } from './0013_trace_outcomes.ts';
import { m0014 } from './0014_feedback_kernel.ts';
import { m0015 } from './0015_mesh_compositions.ts';
import { m0016 } from './0016_trace_endorsements.ts';
import { m0017 } from './0017_x402_payments.ts';
import { m0018 } from './0018_a2a_tasks.ts';
import { m0020 } from './0020_collab.ts';
import { m0021 } from './0021_inbox_and_connector_picks.ts';
import { m0022 } from './0022_funnel_founding.ts';
import { m0023 } from './0023_survey_answers.ts';
import { m0025 } from './0025_economics.ts';
import { m0026 } from './0026_ownership.ts';
import { m0027 } from './0027_budget_counters.ts';
import { m0028 } from './0028_owner_groups.ts';
import { m0029 } from './0029_owner_claim_tokens.ts';
import { m0030 } from './0030_claim_strength.ts';
import { m0031 } from './0031_inbox_counters.ts';
import { m0032 } from './0032_listing_names.ts';
import { m0033 } from './0033_catalog_latest_semver.ts';
import { m0034 } from './0034_catalog_checks.ts';
import { m0035 } from './0035_catalog_feed_and_cards.ts';

export const schemaHistory = (db: Db): Record<string, Migration> => ({
  '0001_listings_and_changes': m0001(db),
  '0002_probe_details': m0002(),
  '0003_jobs_history_snapshots': m0003(db),
  '0004_domain_tables': m0004(),
  '0005_job_fairness': m0005(),
  '0006_listing_identity': m0006(),
  '0007_identity': m0007(),
  '0008_catalog': m0008(db),
  '0009_feed_events': m0009(db),
  '0010_search_queries': m0010(db),
  '0011_jobs_claim_order': m0011(),
  '0012_access_metering_traces': m0012(db),
  '0013_trace_outcomes': m0013(),
  '0014_feedback_kernel': m0014(),
  '0015_mesh_compositions': m0015(),
  '0016_trace_endorsements': m0016(),
  '0017_x402_payments': m0017(),
  '0018_a2a_tasks': m0018(),
  '0020_collab': m0020(),
  '0021_inbox_and_connector_picks': m0021(db),
  '0022_funnel_founding': m0022(),
  '0023_survey_answers': m0023(),
  '0025_economics': m0025(),
  '0026_ownership': m0026(),
  '0027_budget_counters': m0027(),
  '0028_owner_groups': m0028(),
  '0029_owner_claim_tokens': m0029(),
  '0030_claim_strength': m0030(),
  '0031_inbox_counters': m0031(),
  '0032_listing_names': m0032(),
  '0033_catalog_latest_semver': m0033(),
  '0034_catalog_checks': m0034(),
  '0035_catalog_feed_and_cards': m0035(),
});
