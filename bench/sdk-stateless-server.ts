// The baseline for the MCP endpoint benchmark: the official SDK's own stateless server (a new
// McpServer and StreamableHTTPServerTransport per request, the SDK's documented stateless idiom)
// serving Rollcall's whole tool catalog, each tool running the same operation on the same database.
// Usage: node --import tsx bench/sdk-stateless-server.ts <port>   (DATA_DIR from the environment)
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { z } from 'zod';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { operations } from '../src/catalog.ts';
import { runOperation } from '../src/platform/operation.ts';
import { AppError } from '../src/platform/errors.ts';

const port = Number(process.argv[2]);
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', JOB_TICK_S: '0' });
const { services } = await buildApp({ config });
const tools = operations.filter((op) => op.tool !== false);

function serverForRequest() {
  const server = new McpServer({ name: 'rollcall-sdk-baseline', version: '1.0.0' });
  for (const op of tools) {
    const shape = (op.toolInput ?? op.input) as unknown as z.ZodObject;
    for (const name of [op.name, ...(op.aliases ?? [])]) {
      server.registerTool(name, { description: op.description, inputSchema: shape.shape }, async (args: Record<string, unknown>) => {
        const ctx = { ...services, caller: { address: '127.0.0.1' }, requestId: 'bench' };
        try {
          const result = (await runOperation(op, ctx, args, 'mcp')) as Record<string, unknown>;
          return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result };
        } catch (err) {
          const body = { ok: false, error: err instanceof AppError ? err.toBody() : { code: 'internal', message: 'internal error' } };
          return { content: [{ type: 'text' as const, text: JSON.stringify(body) }], structuredContent: body, isError: true };
        }
      });
    }
  }
  return server;
}

http
  .createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') return res.end('ok');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const server = serverForRequest();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  })
  .listen(port, '127.0.0.1');
