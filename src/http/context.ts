// Builds an operation's ctx from a request: the doors' one shared translation of "who is calling".
import type { FastifyRequest } from 'fastify';
import type { Ctx, Services } from '../platform/operation.ts';

export const requestCtx = (services: Services, request: FastifyRequest): Ctx => ({
  ...services,
  log: request.log,
  caller: { address: request.ip },
  requestId: request.id,
});
