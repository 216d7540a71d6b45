// The error body of the ARD registry API (ard-spec 5fa2f5a, ard.openapi.yaml `Error`, spec/ard.md
// appendix B): `{errorCode, message}`, the code an upper-case class of the HTTP status. Rollcall's
// own code, field and request id travel beside them (the schema leaves the object open), so a
// caller can still quote the request.
import type { AppError } from '../platform/errors.ts';

/** The ARD API's paths (its base URL is this service's root). */
const ARD_API_PATHS = new Set(['/search', '/explore']);

/** Whether a request URL (query included or not) is one of the ARD API's. */
export function isArdApiUrl(url: string): boolean {
  return ARD_API_PATHS.has(url.split(/[?#]/, 1)[0]!);
}

/**
 * Appendix B's codes by status, and for the statuses it does not list the gRPC-style names its
 * codes follow; any other 4xx is INVALID_ARGUMENT, any other 5xx INTERNAL_ERROR.
 */
const CODES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RATE_LIMIT_EXCEEDED',
  500: 'INTERNAL_ERROR',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
};

export function ardErrorBody(appError: AppError, requestId: string): Record<string, unknown> {
  const errorCode = CODES[appError.status] ?? (appError.status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_ARGUMENT');
  // A message names its field unless it already does (a schema problem's does).
  const message = appError.field && !appError.message.includes(appError.field) ? `${appError.field}: ${appError.message}` : appError.message;
  return { errorCode, message, code: appError.code, ...(appError.field ? { field: appError.field } : {}), ...(appError.details !== undefined ? { details: appError.details } : {}), request_id: requestId };
}
