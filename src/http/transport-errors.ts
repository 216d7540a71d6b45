// Errors that happen before a route runs still answer in the documented shape
// ({ok:false, error:{code, message}, request_id} and an x-request-id header): a malformed path, a
// request the HTTP parser refuses (headers too large, a broken Content-Length), a known path asked
// with a method it does not serve, and a JSON body that carries a prototype-poisoning key.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../platform/errors.ts';
import { requestId } from '../platform/ids.ts';
import { sendError } from './errors.ts';

/** Fastify's `frameworkErrors`: a path with a malformed percent-escape, and the like. */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  const appError = err.code === 'FST_ERR_BAD_URL' ? badRequest('invalid_path', 'the path is not a valid URL (a malformed percent-escape?)') : err;
  return sendError(appError, request, reply);
}

const PARSER_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'the request headers are larger than this server accepts'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'the request did not arrive in time'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'invalid_request', 'the Content-Length header is not valid'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'invalid_request', 'the Content-Length header does not fit the request'],
};

/** Fastify's `clientErrorHandler`: Node's HTTP parser refused the request, so only the socket is left to answer on. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] = PARSER_ERRORS[err.code ?? ''] ?? [400, 'invalid_request', 'the request is not valid HTTP (a Content-Length that does not match the body?)'];
  const id = requestId(undefined);
  const body = JSON.stringify({ ok: false, error: { code, message }, request_id: id });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${id}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Parses JSON bodies. A body that is valid JSON but has a `__proto__` key (or
 * `constructor.prototype`) is refused by name as bad input, rather than as unparseable JSON.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw badRequest('body_required', 'the request body is empty; send a JSON object');
  // A reviver makes JSON.parse several times slower, and only a body that spells one of the two
  // keys (or writes any \u escape, which could spell them) can carry them: the others parse plainly.
  const plain = !text.includes('__proto__') && !text.includes('constructor') && !text.includes('\\u');
  let forbidden: string | undefined;
  let value: unknown;
  try {
    value = plain
      ? JSON.parse(text)
      : JSON.parse(text, (key, v) => {
          if (key === '__proto__') forbidden ??= '__proto__';
          else if (key === 'constructor' && typeof v === 'object' && v !== null && Object.hasOwn(v, 'prototype')) forbidden ??= 'constructor.prototype';
          return v;
        });
  } catch {
    throw badRequest('invalid_json', 'the request body is not valid JSON');
  }
  if (forbidden) throw badRequest('invalid_input', `the key "${forbidden}" is not allowed in a request body`, forbidden);
  return value;
}

export function registerTransportErrors(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as AppError, undefined);
    }
  });
  // Methods per path, so a known path asked with another method is a 405 with Allow, not a 404.
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const set = methods.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) set.add(m);
    methods.set(route.url, set);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = methods.get(path);
    if (allowed) {
      const allow = [...allowed].sort().join(', ');
      reply.header('allow', allow);
      return sendError(new AppError(405, 'method_not_allowed', `${request.method} is not served at ${path}; use ${allow}`), request, reply);
    }
    return sendError(new AppError(404, 'not_found', `no route ${request.method} ${path}`), request, reply);
  });
}
