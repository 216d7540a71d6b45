// Logger options: pino through Fastify, with tokens and credentials redacted (DESIGN.md
// "Access tokens": never logged).
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Writable } from 'node:stream';

const SECRET_QUERY = /([?&](?:token|access_token|payment_proof)=)[^&#]*/gi;

/** The request URL with secret query values replaced, for logs. */
export const redactUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[redacted]');

export function loggerOptions(level: string, stream?: Writable): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-payment"]', 'req.headers["payment-signature"]'],
      censor: '[redacted]',
    },
    serializers: {
      req(req) {
        return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip, requestId: req.id };
      },
    },
  };
}

/** The logger every layer writes to (Fastify's pino). */
export type Logger = FastifyBaseLogger;
