// What the catalog accepts from an upstream registry (the official MCP registry API's
// `{server, _meta}` items, server.json schema 2025-12-11), checked for the parts we rely on and
// nothing more: an entry that fails is skipped and counted by the sync, never fatal. Upstream text
// is untrusted data: it is stored as received, and cleaned (control characters stripped, lengths
// capped) wherever Rollcall shows it.
import { z } from 'zod';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import type { CatalogStatus } from './tables.ts';

/** The `_meta` key of the official registry's own metadata on each item. */
export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

/** The server.json schema this catalog speaks (upstream entries may name another). */
export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** server.json's name: reverse-DNS namespace, one slash, server name (the official pattern). */
export const SERVER_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** Accepted lengths: generous (the official registry's own limits are tighter), so real entries pass. */
export const LIMITS = {
  name: 200,
  version: 255,
  description: 4000,
  title: 200,
  url: 2048,
  identifier: 512,
  remotes: 50,
  packages: 50,
  /** The stored server.json, serialized. */
  entryBytes: 64 * 1024,
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const noControl = (s: string) => !CONTROL.test(s);

/** An http(s) URL, or a streamable-http URL template (`https://{tenant}.example.com/mcp`). */
const httpUrl = z
  .string()
  .max(LIMITS.url)
  .regex(/^https?:\/\/\S+$/i, 'an http(s) URL')
  .refine(noControl, 'no control characters');

const keyValue = z.looseObject({ name: z.string().min(1).max(LIMITS.identifier) });

const remoteSchema = z.looseObject({
  type: z.enum(['streamable-http', 'sse']),
  url: httpUrl,
  headers: z.array(keyValue).max(100).optional(),
});

const packageSchema = z.looseObject({
  registryType: z.string().min(1).max(64),
  identifier: z.string().min(1).max(LIMITS.identifier),
  version: z.string().max(LIMITS.version).optional(),
  transport: z.looseObject({ type: z.string().min(1).max(64) }),
  environmentVariables: z.array(keyValue).max(200).optional(),
});

export const serverSchema = z.looseObject({
  $schema: z.string().max(LIMITS.url).optional(),
  name: z.string().min(3).max(LIMITS.name).regex(SERVER_NAME, 'reverse-DNS name with one slash'),
  description: z.string().max(LIMITS.description),
  title: z.string().max(LIMITS.title).optional(),
  version: z
    .string()
    .min(1)
    .max(LIMITS.version)
    .refine(noControl, 'no control characters')
    .refine((v) => v !== 'latest', '"latest" is reserved'),
  repository: z.looseObject({ url: z.string().max(LIMITS.url), source: z.string().max(64) }).optional(),
  websiteUrl: httpUrl.optional(),
  packages: z.array(packageSchema).max(LIMITS.packages).optional(),
  remotes: z.array(remoteSchema).max(LIMITS.remotes).optional(),
});

const timestamp = z
  .string()
  .max(64)
  .optional()
  .catch(undefined)
  .transform((v) => {
    if (!v) return undefined;
    const t = new Date(v);
    return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
  });

const officialSchema = z
  .looseObject({
    status: z.enum(['active', 'deprecated', 'deleted']).optional().catch(undefined),
    publishedAt: timestamp,
    updatedAt: timestamp,
  })
  .optional()
  .catch(undefined);

const itemSchema = z.object({
  server: serverSchema,
  _meta: z.looseObject({ [OFFICIAL_META]: officialSchema }).optional().catch(undefined),
});

export type ServerJson = z.output<typeof serverSchema>;

/** A valid upstream item, ready to store. */
export interface UpstreamEntry {
  name: string;
  version: string;
  server: ServerJson;
  status: CatalogStatus;
  publishedAt: string | null;
  /** Upstream's updatedAt (or publishedAt); null when it gave neither. */
  updatedAt: string | null;
}

export type Checked = { ok: true; entry: UpstreamEntry } | { ok: false; reason: string };

/** Checks one upstream item; the reason of a refusal names the first failing field. */
export function checkUpstreamItem(raw: unknown): Checked {
  const parsed = itemSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `invalid ${issue?.path.length ? issue.path.map(String).join('.') : 'item'}` };
  }
  const { _meta } = parsed.data;
  // The object as received, not zod's copy (which puts the schema's keys first): the catalog
  // relays what upstream sent, its fields in their order.
  const server = (raw as { server: ServerJson }).server;
  if (JSON.stringify(server).length > LIMITS.entryBytes) return { ok: false, reason: 'too large' };
  const official = _meta?.[OFFICIAL_META];
  return {
    ok: true,
    entry: {
      name: server.name,
      version: server.version,
      server,
      status: official?.status ?? 'active',
      publishedAt: official?.publishedAt ?? null,
      updatedAt: official?.updatedAt ?? official?.publishedAt ?? null,
    },
  };
}

/** The page envelope of `GET /v0.1/servers`: anything else ends the run (the page cannot be trusted). */
export const pageSchema = z.object({
  servers: z.array(z.unknown()),
  metadata: z
    .looseObject({
      nextCursor: z.string().max(LIMITS.url).nullish(),
      count: z.number().optional(),
    })
    .optional(),
});

/** Display text for search and views: cleaned and capped like listing text. */
export const shownTitle = (server: Record<string, unknown>): string | null =>
  typeof server.title === 'string' && server.title.trim() ? cleanText(server.title, MAX_NAME) : null;
export const shownDescription = (server: Record<string, unknown>): string =>
  typeof server.description === 'string' ? cleanText(server.description, MAX_DESCRIPTION) : '';

/** The remote URLs of a server.json, as given. */
export function remoteUrls(server: Record<string, unknown>): string[] {
  const remotes = Array.isArray(server.remotes) ? (server.remotes as { url?: unknown }[]) : [];
  return remotes.map((r) => r.url).filter((u): u is string => typeof u === 'string');
}
