// Builds an operation's ctx from a request: the doors' one shared translation of "who is calling".
import type { FastifyRequest } from 'fastify';
import type { BaseServices, Ctx } from '../platform/operation.ts';

/** The token of `Authorization: Bearer <token>` (DESIGN.md "Tokens": an owner token, or ADMIN_TOKEN), if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

/** An x402 payment: `X-PAYMENT` (x402 v1) or `PAYMENT-SIGNATURE` (v2). */
export function paymentHeader(request: FastifyRequest): string | undefined {
  const v = request.headers['x-payment'] ?? request.headers['payment-signature'];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

// `services` carries the domains' runtime objects too; operations that need them say so in their ctx type.
export const requestCtx = (services: BaseServices, request: FastifyRequest): Ctx => {
  const token = bearerToken(request);
  const payment = paymentHeader(request);
  return {
    ...services,
    log: request.log,
    caller: { address: request.ip, ...(token ? { bearer: token } : {}) },
    requestId: request.id,
    ...(payment ? { payment } : {}),
    response: { headers: {}, meta: {} },
  };
};
