// The error body of the MCP registry API: `{"error": "<message>"}`, for every status. Clients of that
// API decode exactly this (a Go client's struct has one `Error string`), so under /v0.1 DESIGN.md's
// REST shape would fail to decode; the request id travels in the x-request-id header instead.
import type { AppError } from '../platform/errors.ts';

/** Where the registry API lives: this prefix and everything below it. */
export const REGISTRY_API_PREFIX = '/v0.1';

/** Whether a request URL (query included or not) is one of the registry API's. */
export function isRegistryApiUrl(url: string): boolean {
  const path = url.split(/[?#]/, 1)[0]!;
  return path === REGISTRY_API_PREFIX || path.startsWith(`${REGISTRY_API_PREFIX}/`);
}

/** The registry API's body of an error; a 500 names the request id, which the body has no field for. */
export function registryErrorBody(appError: AppError, requestId: string): { error: string } {
  if (appError.status >= 500 && appError.code === 'internal') return { error: `internal error; quote request id ${requestId} (the x-request-id header) when reporting it` };
  return { error: appError.message };
}
