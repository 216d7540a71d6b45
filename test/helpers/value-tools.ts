// The official MCP SDK client against a listening test app, and small readers of tool results,
// for the value-tool tests (feedback, kernel).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, type TestApp } from './app.ts';
import type { ManualClock } from '../../src/platform/clock.ts';
import { addressHash } from '../../src/metering/caller.ts';

export interface Tools {
  client: Client;
  base: string;
  /** tools/call; returns isError and structuredContent. */
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; sc: any }>;
  /** A call that must succeed: its structuredContent. */
  ok(name: string, args: Record<string, unknown>): Promise<any>;
  /** A call that must fail: its error object. */
  fail(name: string, args: Record<string, unknown>): Promise<{ code: string; message: string; field?: string; details?: any }>;
  close(): Promise<void>;
}

/** `headers`: sent with every request (an owner token: `Authorization: Bearer rco_...`). `base`: an app already listening. */
export async function connect(app: TestApp, options: { headers?: Record<string, string>; base?: string } = {}): Promise<Tools> {
  const base = options.base ?? (await app.listen());
  const client = new Client({ name: 'rollcall-value-tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), options.headers ? { requestInit: { headers: options.headers } } : undefined));
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    return { isError: r.isError === true, sc: r.structuredContent as any };
  };
  return {
    client,
    base,
    call,
    async ok(name, args) {
      const r = await call(name, args);
      assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.sc)}`);
      assert.equal(r.sc.ok, true);
      return r.sc;
    },
    async fail(name, args) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.sc).slice(0, 400)}`);
      assert.equal(r.sc.ok, false);
      return r.sc.error;
    },
    close: () => client.close(),
  };
}

/** The metering subject key of a free-form agent name called from loopback (caller.ts). */
export const nameSubject = (name: string) => `name:${addressHash('127.0.0.1')}:${name.toLowerCase()}`;

/**
 * One app on `clock` and one SDK client for the whole test file: `use` receives them in `before`,
 * both are closed in `after`. Returns `newDay`, which moves the clock to 09:00 UTC of a fresh day
 * (`step` days on) so a test's allowances, grants and the 5 names per address start fresh.
 */
export function valueToolsPerFile(clock: ManualClock, use: (app: TestApp, tools: Tools) => void, step = 1): () => void {
  let app: TestApp | undefined;
  let tools: Tools | undefined;
  before(async () => {
    app = await startApp({ clock });
    tools = await connect(app);
    use(app, tools);
  });
  after(async () => {
    await tools?.close();
    await app?.close();
  });
  let day = 0;
  return () => clock.set(new Date(Date.UTC(2026, 10, 1 + ++day * step, 9)));
}
