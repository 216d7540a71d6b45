// What every discovery document is generated from: the config, the operation catalog (as the MCP
// door lists it) and the REST route table. Nothing here is a hand-kept copy, so a tool or route
// added to the catalog shows up in every document without an edit.
import type { Config } from '../../config.ts';
import { inputJsonSchema, type AnyOperation, type ToolAnnotations } from '../../platform/operation.ts';
import { buildToolList, MCP_PATHS, MCP_SERVER_VERSION } from '../mcp.ts';
import { restRoutes, type RestRoute } from '../rest.ts';
import { A2A_PATH, DOCUMENT_PATHS, IDENTITY_PATHS } from './paths.ts';
import { allCardPaths } from './mcp-server-card.ts';
import { airHost } from '../../registry/air.ts';

/** One input field, as the documents describe it. */
export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  /** Limits in words: "at most 2048 characters", "1 to 1000". */
  limits?: string;
}

export interface ToolDoc {
  name: string;
  title: string;
  description: string;
  /** The operation it runs (differs from `name` for aliases). */
  operation: string;
  aliasOf?: string;
  fields: FieldDoc[];
  annotations?: ToolAnnotations;
}

export interface RouteDoc {
  method: RestRoute['method'];
  path: string;
  url: string;
  summary: string;
  description: string;
  operation: string;
  from: 'query' | 'body';
  fields: FieldDoc[];
  /** Safe for crawlers: a GET that changes nothing and reaches nowhere (or a cached read). */
  crawlable: boolean;
}

export interface DiscoveryModel {
  config: Config;
  /** The operations the MCP door lists (for documents that carry whole tool definitions). */
  catalog: readonly AnyOperation[];
  base: string;
  /** PUBLIC_BASE_URL's host name (no port), as used in `urn:air:` identifiers. */
  host: string;
  mcp: { endpoint: string; paths: readonly string[]; aliases: string[]; serverVersion: string };
  a2aEndpoint: string;
  tools: ToolDoc[];
  routes: RouteDoc[];
  /** The route table the routes were read from (for /openapi.json). */
  routeTable: readonly RestRoute[];
  /** Absolute URL of a document or route path. */
  url(path: string): string;
  docs: { [K in keyof typeof DOCUMENT_PATHS]: string };
  identity: { [K in keyof typeof IDENTITY_PATHS]: string };
  /** Every MCP Server Card (SEP-2127) URL, the whole server's first (mcp-server-card.ts). */
  mcpServerCards: string[];
  /** The tool or route that runs an operation, if either exists today. */
  hasTool(name: string): boolean;
  routeOf(operation: string): RouteDoc | undefined;
  /** An operation is present when it is listed as a tool or served by a route. */
  present(operation: string): boolean;
}

export interface ModelInput {
  config: Config;
  catalog: readonly AnyOperation[];
  /** The REST route table (default: the one the REST door serves). */
  routes?: readonly RestRoute[];
}

/** `list_yourself` -> `List yourself`. */
export const titleFromName = (name: string) => {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
}

function typeOf(s: JsonSchema): string {
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  const t = [s.type ?? 'any'].flat().join(' or ');
  if (t === 'array' && s.items) return `array of ${typeOf(s.items)}`;
  return s.format ? `${t} (${s.format})` : t;
}

function limitsOf(s: JsonSchema): string | undefined {
  const parts: string[] = [];
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    if (min !== undefined && max !== undefined) parts.push(`${min} to ${max}${unit}`);
    else if (max !== undefined) parts.push(`at most ${max}${unit}`);
    else if (min !== undefined && min > 0) parts.push(`at least ${min}${unit}`);
  };
  range(s.minLength, s.maxLength, ' characters');
  range(s.minimum, s.maximum, '');
  range(s.minItems, s.maxItems, ' items');
  return parts.length ? parts.join(', ') : undefined;
}

/** The fields of an input JSON Schema (patterns are left out: they are for machines, in the schema itself). */
export function fieldsOf(schema: Record<string, unknown>): FieldDoc[] {
  const s = schema as JsonSchema;
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).map(([name, p]) => ({
    name,
    type: typeOf(p),
    required: required.has(name),
    ...(p.description ? { description: p.description } : {}),
    ...(limitsOf(p) ? { limits: limitsOf(p) } : {}),
  }));
}

export function buildModel(input: ModelInput): DiscoveryModel {
  const { config, catalog } = input;
  const base = config.publicBaseUrl;
  const host = airHost(base);
  const url = (path: string) => `${base}${path}`;
  const { list, byName } = buildToolList(catalog);
  const listed: readonly { name: string; title?: string; description: string; inputSchema: Record<string, unknown> }[] = list;
  const tools: ToolDoc[] = listed.map((t) => {
    const op = byName.get(t.name);
    const operation = op?.name ?? t.name;
    return {
      name: t.name,
      title: t.title ?? op?.title ?? titleFromName(operation),
      description: t.description,
      operation,
      ...(operation !== t.name ? { aliasOf: operation } : {}),
      fields: fieldsOf(t.inputSchema),
      ...(op?.annotations ? { annotations: op.annotations } : {}),
    };
  });
  const routeTable = input.routes ?? restRoutes;
  const routes: RouteDoc[] = routeTable.map((r) => {
    const a = r.operation.annotations;
    return {
      method: r.method,
      path: r.path,
      url: url(r.path),
      summary: r.summary,
      description: r.operation.description,
      operation: r.operation.name,
      from: r.from,
      fields: fieldsOf(inputJsonSchema(r.operation.input)),
      crawlable: r.method === 'GET' && (Boolean(r.operation.cacheMs) || Boolean(a?.readOnlyHint && !a.openWorldHint)),
    };
  });
  const toolNames = new Set(tools.map((t) => t.name));
  const routeByOp = new Map<string, RouteDoc>();
  for (const r of routes) if (!routeByOp.has(r.operation)) routeByOp.set(r.operation, r);
  const mapUrls = <T extends Record<string, string>>(paths: T) => Object.fromEntries(Object.entries(paths).map(([k, p]) => [k, url(p)])) as { [K in keyof T]: string };
  return {
    config,
    catalog,
    base,
    host,
    mcp: { endpoint: url(MCP_PATHS[0]), paths: MCP_PATHS, aliases: MCP_PATHS.slice(1).map(url), serverVersion: MCP_SERVER_VERSION },
    a2aEndpoint: url(A2A_PATH),
    tools,
    routes,
    routeTable,
    url,
    docs: mapUrls(DOCUMENT_PATHS),
    identity: mapUrls(IDENTITY_PATHS),
    mcpServerCards: allCardPaths().map(url),
    hasTool: (name) => toolNames.has(name),
    routeOf: (operation) => routeByOp.get(operation),
    present: (operation) => toolNames.has(operation) || routeByOp.has(operation),
  };
}

/** The first sentence of a description, for one-line lists. */
export function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (m ? m[1]! : text.trim()).replace(/\s+/g, ' ');
}
