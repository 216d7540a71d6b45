// The pages' static files (assets/): read once at start, served with a content-hash ETag. Asked
// for by their hashed URL (`/assets/site.css?v=<hash>`, what the layout links) they cache for a
// year; any other URL revalidates. The only script the pages run is site.js, from this origin.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { matchesEtag } from '../response-cache.ts';

// Beside this file in src/; in the build, scripts/build.mjs copies them beside the chunks in dist/.
const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
  hash: string;
}

const assets = new Map<string, Asset>(
  fs.readdirSync(DIR).map((name) => {
    const body = fs.readFileSync(path.join(DIR, name));
    return [name, { body, type: TYPES[path.extname(name)] ?? 'application/octet-stream', hash: createHash('sha256').update(body).digest('base64url').slice(0, 12) }];
  }),
);

/** The cache-busting URL of an asset. */
export function assetUrl(name: string): string {
  const a = assets.get(name);
  if (!a) throw new Error(`no asset ${name}`);
  return `/assets/${name}?v=${a.hash}`;
}

export function registerAssets(app: FastifyInstance) {
  app.get<{ Params: { name: string }; Querystring: { v?: string } }>('/assets/:name', async (request, reply) => {
    const a = assets.get(request.params.name);
    if (!a) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
    const etag = `"${a.hash}"`;
    const pinned = request.query.v === a.hash;
    reply
      .header('etag', etag)
      .header('cache-control', pinned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
      .header('x-content-type-options', 'nosniff');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type(a.type).send(a.body);
  });
}
