// The badges (SPEC.md 4.1): GET /badge/{mcp, agent, listed, clean, verified, live}[.svg] as SVG
// drawn by badge-maker (the shields.io library, which escapes every text it draws). Without `id`
// the registry's own badge, with `?id=<listing_id>` that listing's. An unknown id (or an mcp badge
// asked for an agent) is a grey "not found" badge with status 404: an image, since badges live in
// READMEs. Short public caching with an ETag (304), CORS open, and a CSP that lets the SVG run nothing.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { makeBadge } from 'badge-maker';
import { z } from 'zod';
import type { BaseServices } from '../platform/operation.ts';
import { invalidInput } from '../platform/errors.ts';
import { BADGE_NAMES, listingBadge, listingBadgeFacts, notFoundBadge, registryBadge, registryBadgeFacts, type BadgeName, type BadgeText } from '../registry/badges.ts';
import { matchesEtag } from './response-cache.ts';

/** Badges change when a listing's state does; a minute of caching keeps READMEs current enough. */
export const BADGE_MAX_AGE_S = 60;
export const BADGE_STYLES = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] as const;

const query = z.object({
  id: z.string().min(1).max(64).optional().describe('A listing_id: that listing\'s badge; without it, the registry\'s.'),
  style: z.enum(BADGE_STYLES).optional().describe('badge-maker style (default flat).'),
});

const badgeOf = (param: string): BadgeName | undefined => {
  const name = param.endsWith('.svg') ? param.slice(0, -4) : param;
  return (BADGE_NAMES as readonly string[]).includes(name) ? (name as BadgeName) : undefined;
};

export function registerBadges(app: FastifyInstance, services: BaseServices) {
  const { db } = services;
  app.get<{ Params: { name: string } }>('/badge/:name', async (request, reply) => {
    const parsed = query.safeParse(request.query ?? {});
    if (!parsed.success) throw invalidInput(parsed.error);
    const { id, style } = parsed.data;
    const badge = badgeOf(request.params.name);
    let text: BadgeText | undefined;
    let status = 200;
    if (!badge) {
      text = { label: 'Rollcall', message: 'no such badge', color: 'lightgrey' };
      status = 404;
    } else if (id === undefined) {
      text = registryBadge(badge, await registryBadgeFacts(db.kysely));
    } else {
      const facts = await listingBadgeFacts(db.kysely, id);
      text = facts && listingBadge(badge, facts);
      if (!text) {
        text = notFoundBadge(badge);
        status = 404;
      }
    }
    const svg = makeBadge({ ...text, ...(style ? { style } : {}) });
    const etag = `"${createHash('sha1').update(svg).digest('base64url')}"`;
    reply
      .code(status)
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', `public, max-age=${BADGE_MAX_AGE_S}`)
      .header('etag', etag)
      .header('access-control-allow-origin', '*')
      .header('x-content-type-options', 'nosniff')
      // An SVG opened on its own is a document: it may draw, never run or fetch anything.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    if (status === 200 && matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.send(svg);
  });
}
