// A test-only metered tool, installed in the real doors (the MCP catalog and one REST route)
// before a test app starts: a mesh_match whose work leaves one demand trace. The value tools come
// from other issues; this is the smallest honest path through metered() and both doors.
import { z } from 'zod';
import { defineOperation } from '../../src/platform/operation.ts';
import { metered, meteredArgs } from '../../src/metering/run.ts';
import { restRoutes } from '../../src/http/rest.ts';
import { operations } from '../../src/catalog.ts';
import { deposit } from '../../src/traces/store.ts';
import { subjectKey } from '../../src/traces/subjects.ts';

export const TEST_TOOL = 'test_paid_match';
export const TEST_ROUTE = '/test/paid-match';

/** Called each time the tool's work runs (tests record the order of verify, work and settle). */
export const workHooks: { onWork: () => void } = { onWork: () => {} };

export const testPaidMatch = defineOperation({
  name: TEST_TOOL,
  title: 'Test: metered match',
  description: 'Test only: one metered mesh_match unit whose work leaves a demand trace on a capability.',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: z.object({
    ...meteredArgs,
    listing_id: z.string().max(64).optional(),
    agent_name: z.string().max(120).optional(),
    capability: z.string().min(1).max(100).default('search'),
  }),
  async handler(ctx, input) {
    const run = await metered(ctx, { listing_id: input.listing_id, agent_name: input.agent_name, payment_proof: input.payment_proof }, 'mesh_match', async (trx, subject) => {
      workHooks.onWork();
      await deposit(trx, { channel: 'demand', subject: subjectKey({ kind: 'capability', capability: input.capability }), intensity: 1, body: null, depositor: subject.key, at: ctx.clock.now() });
      return { capability: input.capability };
    });
    return { ok: true as const, ...run.result, meter: run.meter, ...(run.payment ? { payment: run.payment } : {}) };
  },
});

/** Adds the tool to the catalog and the REST routes once per process (before startApp). */
export function installTestTool(): void {
  if ((operations as readonly unknown[]).includes(testPaidMatch)) return;
  (operations as unknown[]).push(testPaidMatch);
  restRoutes.push({ method: 'POST', path: TEST_ROUTE, operation: testPaidMatch, from: 'body', summary: 'test only' });
}
