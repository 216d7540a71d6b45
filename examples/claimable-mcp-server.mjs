// A small MCP server (streamable HTTP, the official SDK) that also serves its origin's
// /.well-known/rollcall-claim.txt from the file named by ROLLCALL_CLAIM_FILE, read on every
// request: the examples of docs/guide/owning.md claim it. Run it from a checkout after
// `npm ci`: PORT=3002 ROLLCALL_CLAIM_FILE=./rollcall-claim.txt node examples/claimable-mcp-server.mjs
import http from 'node:http';
import fs from 'node:fs';
import { z } from 'zod';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';

const port = Number(process.env.PORT ?? 3002);
const claimFile = process.env.ROLLCALL_CLAIM_FILE ?? './rollcall-claim.txt';

const makeServer = () => {
  const server = new McpServer({ name: 'claimable-example', version: '1.0.0' });
  server.registerTool(
    'word_count',
    { description: 'Counts the words of a text.', inputSchema: z.object({ text: z.string().describe('The text to count the words of') }) },
    async ({ text }) => ({ content: [{ type: 'text', text: String(text.split(/\s+/).filter(Boolean).length) }] }),
  );
  return server;
};
const mcp = toNodeHandler(createMcpHandler(makeServer));

http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/rollcall-claim.txt') {
      if (!fs.existsSync(claimFile)) return res.writeHead(404).end('no claim file yet');
      return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(fs.readFileSync(claimFile));
    }
    if (req.url?.startsWith('/mcp')) return void mcp(req, res);
    res.writeHead(404).end();
  })
  .listen(port, '127.0.0.1', () => console.log(`claimable MCP server on http://localhost:${port}/mcp`));
