// What a page gets and gives back. A page reads only through operations (`run`, the same input
// checks as the REST door) and the registry's read models, over the request's services.
import type { FastifyRequest } from 'fastify';
import type { BaseServices, Operation } from '../../platform/operation.ts';
import type { Html } from './html.ts';

export interface PageCtx {
  services: BaseServices;
  request: FastifyRequest;
  base: string;
  now: Date;
  // biome-ignore lint/suspicious/noExplicitAny: like the REST door, pages hand each operation the whole services bundle
  run<R>(op: Operation<any, R, any>, input: unknown): Promise<R>;
}

export interface PageResult {
  html: Html;
  status?: number;
  /** More headers (a form page's Set-Cookie, a refusal's Retry-After). */
  headers?: Record<string, string>;
  /** The page shows a secret (a claim id, an owner token): never stored by a browser or a cache. */
  noStore?: boolean;
}

export type PageRender = (p: PageCtx) => Promise<PageResult>;

/** A query parameter as one trimmed string ('' when absent or repeated oddly). */
export function queryParam(p: PageCtx, name: string): string {
  const v = (p.request.query as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v.trim() : '';
}
