// Translates any thrown error into DESIGN.md's REST error: status + {ok:false, error, request_id}
// (under /v0.1, the MCP registry API's own `{error}` body instead; on the ARD API's paths, ARD's
// `{errorCode, message}`). Bad input never becomes a 500,
// and a 500 never shows internals.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.ts';
import { dbFailure } from '../platform/db/failures.ts';
import { x402Of } from '../metering/x402-shapes.ts';
import { isRegistryApiUrl, registryErrorBody } from './registry-api-errors.ts';
import { ardErrorBody, isArdApiUrl } from './ard-api-errors.ts';

const FASTIFY_CODES: Record<string, [number, string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large', 'request body is larger than the limit'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'send the body as application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_request', 'content-length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'body_required', 'the request body is empty; send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'the request body is not valid JSON'],
};

/** Seconds a caller is asked to wait when the database cannot answer. */
export const UNAVAILABLE_RETRY_S = 5;

/** The 503 of a database that cannot answer now (or keeps aborting the transaction): not the caller's fault, nor a bug. */
export const databaseUnavailable = () =>
  new AppError(503, 'unavailable', `the database is unavailable or busy; retry in ${UNAVAILABLE_RETRY_S} s`).withHeaders({ 'retry-after': String(UNAVAILABLE_RETRY_S) });

/** Maps an error to an AppError; a database that cannot answer is a 503; unknown errors become an opaque 500. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (dbFailure(err)) return databaseUnavailable();
  const e = err as Partial<FastifyError> & { limit?: number };
  if (e.code && FASTIFY_CODES[e.code]) {
    const [status, code, message] = FASTIFY_CODES[e.code]!;
    return new AppError(status, code, message);
  }
  if (e instanceof SyntaxError || (e.statusCode === 400 && /JSON/i.test(e.message ?? ''))) {
    return new AppError(400, 'invalid_json', 'the request body is not valid JSON');
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.statusCode, 'bad_request', e.message ?? 'bad request');
  }
  return new AppError(500, 'internal', 'internal error; quote request_id when reporting it');
}

/**
 * The REST body of an error. A 402 of the x402 path is the x402 v1 body itself (`x402Version`,
 * `error` as a string, `accepts`: what x402 clients read), with our `ok`, `code` and `request_id`
 * beside it; its v2 offer travels in the PAYMENT-REQUIRED header.
 */
export function errorBody(appError: AppError, requestId: string): Record<string, unknown> {
  const x402 = x402Of(appError);
  if (x402) return { ...x402.v1, ok: false, code: appError.code, ...(appError.field ? { field: appError.field } : {}), request_id: requestId };
  return { ok: false, error: appError.toBody(), request_id: requestId };
}

export function sendError(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(err);
  if (appError.code === 'unavailable') request.log.warn({ err }, 'request failed: the database is unavailable');
  else if (appError.status >= 500) request.log.error({ err }, 'request failed');
  const body = isRegistryApiUrl(request.url) ? registryErrorBody(appError, request.id) : isArdApiUrl(request.url) ? ardErrorBody(appError, request.id) : errorBody(appError, request.id);
  return reply.code(appError.status).headers(appError.headers).send(body);
}
