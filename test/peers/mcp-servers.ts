// Live MCP servers for tests, on loopback: the official reference server (server-everything) in
// streamable HTTP mode, and a 2026-07-28 server built here with the v2 SDK's createMcpHandler.
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { serveClaimFile, type ClaimSpots } from './claim-spots.ts';

export interface Peer {
  url: string;
  /** The peer's process, when it runs in one of its own (a bench lowers its CPU priority). */
  pid?: number;
  close(): Promise<void>;
}

/**
 * Ports handed out below Linux's ephemeral range (32768-60999) and macOS's (49152-65535): a port
 * the kernel picked for "any free port" is also where it puts the local end of outbound
 * connections, and the suite opens many, so a server started a moment later on such a port could
 * find it taken ("Port ... is already in use").
 */
const PORTS = { from: 20_000, to: 32_767 };
/** Handed out by this process already: each goes to one server, even before that server listens. */
const handedOut = new Set<number>();

/** A port free on 127.0.0.1 now, for a server about to start there. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORTS.from + Math.floor(Math.random() * (PORTS.to - PORTS.from + 1));
    if (handedOut.has(port)) continue;
    const s = net.createServer();
    const listening = await new Promise<boolean>((resolve) => {
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!listening) continue;
    await new Promise<void>((r) => s.close(() => r()));
    handedOut.add(port);
    return port;
  }
}

/**
 * @modelcontextprotocol/server-everything, started as its own process: in streamable HTTP mode
 * (`/mcp`), or in the legacy HTTP+SSE mode of 2024-11-05 (`/sse`, messages posted to `/message`).
 */
export async function startEverything(mode: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<Peer> {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [entry, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 20_000);
      const onData = (chunk: Buffer) => {
        output += chunk;
        if (output.includes(`listening on port ${port}`) || output.includes(`running on port ${port}`)) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (ready) {
      return {
        url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
        pid: child.pid,
        close: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGINT');
            setTimeout(() => child.kill('SIGKILL'), 3000).unref();
          }),
      };
    }
    child.kill('SIGKILL');
    if (attempt >= 2) throw new Error(`server-everything did not start: ${output}`);
  }
}

/**
 * Rewrites the answer the SDK writes to `res`: each JSON-RPC result (a JSON body, or the data of
 * an event stream) gets `_meta["io.rollcall/claim"]` (the proof a server publishes for a claim).
 */
function withClaimMeta(res: http.ServerResponse, proof: string): void {
  const chunks: Buffer[] = [];
  let head: Parameters<http.ServerResponse['writeHead']> | undefined;
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  res.writeHead = ((...args: Parameters<http.ServerResponse['writeHead']>) => {
    head = args;
    return res;
  }) as typeof res.writeHead;
  res.write = ((chunk: string | Buffer) => {
    chunks.push(Buffer.from(chunk));
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: string | Buffer) => {
    if (chunk) chunks.push(Buffer.from(chunk));
    const add = (json: string) => {
      const msg = JSON.parse(json);
      if (msg?.result) msg.result._meta = { ...(msg.result._meta ?? {}), 'io.rollcall/claim': proof };
      return JSON.stringify(msg);
    };
    const text = Buffer.concat(chunks).toString();
    const body = text.trimStart().startsWith('{') ? add(text) : text.replace(/^data: (.*)$/gm, (_l, json: string) => `data: ${add(json)}`);
    res.removeHeader('content-length');
    if (head) {
      const [status, ...rest] = head;
      const headers = rest.find((r) => typeof r === 'object') as Record<string, unknown> | undefined;
      if (headers) for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-length') delete headers[k];
      writeHead(status, ...(rest as []));
    }
    return end(body);
  }) as typeof res.end;
}

export interface ModernMcpOptions {
  legacy?: 'stateless' | 'reject';
  /** The loopback address to listen on (127.0.0.x: a host of its own). */
  host?: string;
  /** Where it shows a proof of control (claim-spots.ts). */
  claims?: ClaimSpots;
  /** Its serverInfo name (default weather-now) and title. */
  info?: { name: string; title?: string };
}

/** A 2026-07-28 MCP server (v2 SDK) with two documented tools; `legacy: 'reject'` refuses older eras. */
export async function startModernMcp(options: ModernMcpOptions = {}): Promise<Peer> {
  const makeServer = () => {
    const server = new McpServer({ name: options.info?.name ?? 'weather-now', ...(options.info?.title ? { title: options.info.title } : {}), version: '2.0.1' });
    server.registerTool(
      'current_weather',
      { description: 'Current temperature and sky conditions for a city.', inputSchema: z.object({ city: z.string().describe('City name, e.g. Lisbon') }) },
      async ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }),
    );
    server.registerTool(
      'forecast',
      {
        description: 'Daily forecast for the next days for a city.',
        inputSchema: z.object({ city: z.string().describe('City name'), days: z.number().int().describe('How many days, 1-7') }),
      },
      async ({ city, days }) => ({ content: [{ type: 'text', text: `${days} sunny days in ${city}` }] }),
    );
    return server;
  };
  const handler = createMcpHandler(makeServer, options.legacy ? { legacy: options.legacy } : {});
  const node = toNodeHandler(handler);
  const claims = options.claims;
  const server = http.createServer((req, res) => {
    if (claims) claims.requests++;
    if (claims && serveClaimFile(claims, req, res)) return;
    if (req.url?.startsWith('/mcp')) {
      if (claims?.card !== undefined && req.method === 'POST') withClaimMeta(res, claims.card);
      return void node(req, res);
    }
    res.statusCode = 404;
    res.end();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    url: `http://${host}:${(server.address() as net.AddressInfo).port}/mcp`,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
