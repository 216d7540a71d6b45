// A catalog read from a local file instead of the network (`rollcall sync-catalog --file`). The
// file holds what the official MCP registry answers for `GET /v0/servers` or `/v0.1/servers`
// (`{servers: [{server, _meta}], metadata}`, the envelope the network sync checks, pageSchema), or
// a plain JSON array of server.json objects: in the current shape, or in the shape of the
// registry's first seed (../shared/data/mcp-registry-seed-2025-05-16.json, seed-format.ts). The
// whole document is checked here before anything is stored; its entries are then checked one by
// one by the same rule as the network's (entry.ts checkUpstreamItem), in load.ts.
import { readFile } from 'node:fs/promises';
import { locateJsonError } from '../platform/json-syntax.ts';
import { pageSchema } from './entry.ts';
import { fromSeedRecord, isSeedRecord } from './seed-format.ts';

export type CatalogFileProblem = 'file_not_found' | 'file_unreadable' | 'not_json' | 'not_a_server_list';

/** The file cannot be a catalog: nothing was stored. The message says what is wrong and where. */
export class CatalogFileError extends Error {
  constructor(
    readonly code: CatalogFileProblem,
    message: string,
  ) {
    super(message);
    this.name = 'CatalogFileError';
  }
}

export interface CatalogDocument {
  /** `server_list`: the registry's list answer; `server_json_array`: a plain array of server.json. */
  format: 'server_list' | 'server_json_array';
  /** Its entries as list items (`{server, _meta?}`), not checked yet. */
  items: unknown[];
}

const SHAPES = 'expected the registry\'s list answer {"servers": [{"server": {...}, "_meta": {...}}], "metadata": {...}} or an array of server.json objects';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** One entry of the document as a list item: list items as they are, server.json objects (either shape) wrapped. */
function asListItem(entry: unknown): unknown {
  if (isSeedRecord(entry)) return fromSeedRecord(entry);
  if (!isObject(entry) || isObject(entry.server)) return entry;
  // Answers of the registry's early v0 carried `_meta` inside the server.json.
  const { _meta, ...server } = entry;
  return _meta === undefined ? { server } : { server, _meta };
}

/** Reads a catalog document from `text`; `where` names it in errors (the file's path). */
export function parseCatalogDocument(text: string, where: string): CatalogDocument {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (err) {
    const at = locateJsonError(source);
    const detail = at ? `${at.problem} at line ${at.line}, column ${at.column}` : String((err as Error).message).split('\n')[0];
    throw new CatalogFileError('not_json', `${where} is not JSON: ${detail}`);
  }
  if (Array.isArray(doc)) return { format: 'server_json_array', items: doc.map(asListItem) };
  if (!isObject(doc)) throw new CatalogFileError('not_a_server_list', `${where} holds ${kindOf(doc)}: ${SHAPES}`);
  if (!('servers' in doc)) {
    const keys = Object.keys(doc).slice(0, 5);
    throw new CatalogFileError('not_a_server_list', `${where} holds an object ${keys.length ? `with ${keys.map((k) => JSON.stringify(k)).join(', ')}` : 'with no fields'} and no "servers": ${SHAPES}`);
  }
  const page = pageSchema.safeParse(doc);
  if (!page.success) {
    const issue = page.error.issues[0];
    const path = issue?.path.length ? issue.path.map(String).join('.') : 'the top level';
    throw new CatalogFileError('not_a_server_list', `${where} is not a server list: at ${path}, ${issue?.message ?? 'an unexpected shape'}`);
  }
  return { format: 'server_list', items: page.data.servers.map(asListItem) };
}

/** Reads and parses a catalog file; throws CatalogFileError when it cannot be one. */
export async function readCatalogFile(path: string): Promise<CatalogDocument> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CatalogFileError('file_not_found', `${path}: no such file`);
    if (code === 'EISDIR') throw new CatalogFileError('file_unreadable', `${path} is a directory, not a file`);
    if (code === 'EACCES' || code === 'EPERM') throw new CatalogFileError('file_unreadable', `${path}: permission denied`);
    throw new CatalogFileError('file_unreadable', `${path} cannot be read: ${(err as Error).message}`);
  }
  return parseCatalogDocument(text, path);
}
