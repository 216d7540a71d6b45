// Rough edges a newcomer meets first: every error that reaches a client has the
// documented shape and an x-request-id, over real HTTP; the process a deployer signals ends.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { startEverything } from './peers/mcp-servers.ts';
import { Writable } from 'node:stream';
import { startApp, freshStore, type TestApp } from './helpers/app.ts';

let app: TestApp;
let base: string;
before(async () => {
  app = await startApp();
  base = await app.listen();
});
after(() => app.close());

/** Sends bytes as they are (no client library tidies them) and returns the raw answer. */
function raw(bytes: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve(out);
    }, 3000);
  });
}

function assertShape(status: number, headers: Record<string, string | string[] | undefined>, body: string, code: string) {
  const parsed = JSON.parse(body);
  assert.equal(parsed.ok, false);
  assert.equal(parsed.error.code, code, body);
  assert.equal(typeof parsed.error.message, 'string');
  assert.match(String(headers['x-request-id']), /^req_/);
  assert.equal(parsed.request_id, headers['x-request-id']);
  return { status, parsed };
}

function parseRaw(text: string) {
  const [head, body = ''] = text.split('\r\n\r\n');
  const lines = head!.split('\r\n');
  const status = Number(lines[0]!.split(' ')[1]);
  const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status, headers, body };
}

test('a malformed percent-escape in the path is a 400 in the error shape, with x-request-id', async () => {
  const res = await fetch(`${base}/api/listings/%zz`);
  assert.equal(res.status, 400);
  assertShape(res.status, Object.fromEntries(res.headers), await res.text(), 'invalid_path');
});

test('headers too large are a 431 in the error shape', async () => {
  const { port } = new URL(base);
  const res = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/healthz', headers: { 'x-padding': 'a'.repeat(20_000) } }, (r) => {
      let body = '';
      r.on('data', (c) => (body += c));
      r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(res.status, 431);
  assertShape(res.status, res.headers, res.body, 'headers_too_large');
});

test('a Content-Length that is not a number, or that does not fit, is a 400 in the error shape', async () => {
  for (const request of [
    'POST /api/publish HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
    // Shorter than the body: the rest of the body cannot be read as a next request.
    'POST /api/publish HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}garbage that is no request line\r\n\r\n',
  ]) {
    const answers = (await raw(request)).split(/(?=HTTP\/1\.1 )/).map(parseRaw);
    const last = answers[answers.length - 1]!;
    assert.equal(last.status, 400, request);
    assertShape(last.status, last.headers, last.body, 'invalid_request');
  }
});

test('a __proto__ key is refused by name as bad input, over REST and over MCP', async () => {
  const rest = await fetch(`${base}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"https://proto.example/mcp","__proto__":{"admin":true}}' });
  assert.equal(rest.status, 400);
  const { parsed } = assertShape(400, Object.fromEntries(rest.headers), await rest.text(), 'invalid_input');
  assert.equal(parsed.error.field, '__proto__');
  assert.match(parsed.error.message, /__proto__/);
  const nested = await fetch(`${base}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"https://proto.example/mcp","x":{"constructor":{"prototype":{"a":1}}}}' });
  assert.equal((await nested.json()).error.field, 'constructor.prototype');
  // The key spelled with JSON escapes is the same key once parsed.
  const escaped = await fetch(`${base}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":"https://proto.example/mcp","\\u005f_proto__":{"admin":true}}' });
  assert.equal(escaped.status, 400);
  assert.equal((await escaped.json()).error.field, '__proto__');
  const mcp = await fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_status","arguments":{"id":"x","__proto__":{}}}}',
  });
  assert.equal(mcp.status, 400);
  const answer = await mcp.json();
  assert.equal(answer.error.code, -32600, 'an invalid request, not a parse error');
  assert.match(answer.error.message, /__proto__/);
  assert.equal(answer.error.data.error.code, 'invalid_input');
  const listed = await app.sql.selectFrom('listings').select('id').where('url', 'like', '%proto.example%').execute();
  assert.equal(listed.length, 0, 'nothing was stored');
});

test('a known path with a method it does not serve is a 405 with Allow; an unknown path stays a 404', async () => {
  for (const [method, path, allow] of [
    ['DELETE', '/api/publish', 'POST'],
    ['PUT', '/api/listings/active', 'GET, HEAD'],
    ['POST', '/api/listings/status', 'GET, HEAD'],
  ] as const) {
    const res = await fetch(`${base}${path}`, { method });
    assert.equal(res.status, 405, `${method} ${path}`);
    assert.equal(res.headers.get('allow'), allow);
    assertShape(405, Object.fromEntries(res.headers), await res.text(), 'method_not_allowed');
  }
  const missing = await fetch(`${base}/api/nothing-here`);
  assert.equal(missing.status, 404);
  assertShape(404, Object.fromEntries(missing.headers), await missing.text(), 'not_found');
});

test('JSON-RPC: a message that is not a valid request is HTTP 400 with -32600, whatever its JSON type', async () => {
  const post = (body: string) => fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
  for (const body of ['null', '42', '"text"', '{}', 'true', '{"jsonrpc":"2.0","id":{},"method":"ping"}', '{"jsonrpc":"1.0","id":1,"method":"ping"}']) {
    const res = await post(body);
    assert.equal(res.status, 400, body);
    assert.equal((await res.json()).error.code, -32600, body);
  }
  const parse = await post('{not json');
  assert.equal(parse.status, 400);
  assert.equal((await parse.json()).error.code, -32700);
  // In a batch (2025-03-26) each answer travels in a 200 body.
  const batch = await fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' },
    body: '[42, {"jsonrpc":"2.0","id":2,"method":"ping"}]',
  });
  assert.equal(batch.status, 200);
  const answers = await batch.json();
  assert.equal(answers[0].error.code, -32600);
  assert.deepEqual(answers[1].result, {});
});

test('the server warns at start when PROBE_ALLOW_PRIVATE is on, and only then', async () => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const open = await startApp({ logStream, env: { LOG_LEVEL: 'info', PROBE_ALLOW_PRIVATE: '1' } });
  await open.close();
  const strict = await startApp({ logStream, env: { LOG_LEVEL: 'info' } });
  await strict.close();
  const warnings = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && /PROBE_ALLOW_PRIVATE=1/.test(l.msg));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0].msg, /never in production/);
});

test('npm start with PROBE_ALLOW_PRIVATE=1 lists a local server-everything and makes it Live; SIGTERM to npm ends the server', async (t) => {
  const store = await freshStore();
  await store.db.close();
  t.after(() => store.drop());
  const everything = await startEverything();
  t.after(() => everything.close());
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['start'], { env: { ...process.env, ...store.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', PROBE_ALLOW_PRIVATE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let serverPid = 0;
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    if (serverPid) {
      try {
        process.kill(serverPid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });
  let out = '';
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in: ${out}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes('Rollcall is listening'));
      if (line) {
        clearTimeout(timer);
        const parsed = JSON.parse(line);
        serverPid = parsed.pid;
        resolve(parsed.address);
      }
    });
  });
  assert.notEqual(serverPid, child.pid, 'npm runs the server as a process of its own');
  assert.equal((await fetch(`${address}/healthz`)).status, 200);
  assert.match(out, /PROBE_ALLOW_PRIVATE=1.*never in production/, 'the server warns that private probing is on');
  // Publish http://localhost:<port>/mcp, then poll status until Live.
  const published = await fetch(`${address}/api/publish`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://localhost:${new URL(everything.url).port}/mcp`, contact_email: 'you@example.org' }),
  });
  const listing = await published.json();
  assert.equal(listing.outcome, 'listed');
  let lane = listing.lane;
  for (let i = 0; i < 300 && lane !== 'active'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    lane = (await (await fetch(`${address}/api/listings/status?id=${listing.listing_id}`)).json()).lane;
  }
  assert.equal(lane, 'active', 'the local server went Live');
  const active = await (await fetch(`${address}/api/listings/active?limit=20`)).json();
  assert.deepEqual(active.mcps.map((m: { id: string }) => m.id), [listing.listing_id]);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  await exited;
  // The server got the signal, shut down cleanly and is gone.
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(serverPid, 0);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.throws(() => process.kill(serverPid, 0), 'the server process has exited');
  assert.match(out, /shutting down/);
  await assert.rejects(fetch(`${address}/healthz`), 'nothing listens any more');
});
