// tools/list, computed once at start from the operation catalog: every tool with its name, title,
// description, input schema (JSON Schema 2020-12 from zod), output schema and annotations, in the
// catalog's order (deterministic across requests). Aliases are listed as tools of their own.
import { z } from 'zod';
import { inputJsonSchema, type AnyOperation, type ToolAnnotations } from '../platform/operation.ts';

export interface ToolEntry {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations & { title?: string };
}

/** A tool that states nothing is assumed to change things and to reach out (the cautious hints). */
const CAUTIOUS: ToolAnnotations = { readOnlyHint: false, idempotentHint: false, openWorldHint: true };

/**
 * Every result: a success object with `ok: true`, or a failure in the REST error shape (`isError`,
 * `ok: false` with `error` and `request_id`; a 402 also carries the x402 MCP transport's offer,
 * `x402/error`). The schema a client sees names the top-level fields a caller reads, each with its
 * type, and no more: their inner structure is the REST answer's, described in /openapi.json and
 * TOOLS.md, and spelling it out in every tool made tools/list five times longer (docs/performance.md,
 * "tools/list"). Clients that validate results (the SDK's client does, success and failure alike)
 * find every answer valid: other fields are allowed, and only `ok` is required.
 */
const successDefault = z.looseObject({ ok: z.literal(true) });

type JsonSchema = Record<string, unknown>;

/** The JSON types a property's schema allows (from `type`, `const`, `enum`, or the members of `anyOf`); empty when any. */
function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if ('const' in schema) return [schema.const === null ? 'null' : typeof schema.const === 'number' ? 'number' : typeof schema.const];
  if (Array.isArray(schema.enum)) return [...new Set((schema.enum as unknown[]).map((v) => (v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v)))];
  const members = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!members) return [];
  const all = members.map(typesOf);
  return all.some((t) => t.length === 0) ? [] : [...new Set(all.flat())];
}

/**
 * JSON Schema of a success as Rollcall sends it: the operation's output schema with its top-level
 * fields typed and `ok: true` required. /openapi.json gives it as every route's 200.
 */
export function successJsonSchema(op: Pick<AnyOperation, 'output'>): JsonSchema {
  const json = z.toJSONSchema(op.output ?? successDefault, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)) {
    const types = typesOf(schema);
    properties[name] = types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types };
  }
  properties.ok = { const: true };
  return { type: 'object', properties, required: ['ok'] };
}

/** JSON Schema of a result as an MCP tool returns it: the success's fields, and the failure's beside them. */
function outputJsonSchema(op: AnyOperation): JsonSchema {
  const success = successJsonSchema(op);
  return { ...success, properties: { ...(success.properties as Record<string, JsonSchema>), ok: { type: 'boolean' }, error: { type: 'object' }, request_id: { type: 'string' } } };
}

export function buildToolList(catalog: readonly AnyOperation[]): { list: ToolEntry[]; byName: Map<string, AnyOperation> } {
  const list: ToolEntry[] = [];
  const byName = new Map<string, AnyOperation>();
  for (const op of catalog) {
    if (op.tool === false) continue;
    const inputSchema = inputJsonSchema(op.toolInput ?? op.input);
    const outputSchema = outputJsonSchema(op);
    for (const name of [op.name, ...(op.aliases ?? [])]) {
      const description = name === op.name ? op.description : `Alias of ${op.name}. ${op.description}`;
      const title = op.title && name !== op.name ? `${op.title} (alias)` : op.title;
      list.push({
        name,
        ...(title ? { title } : {}),
        description,
        inputSchema,
        outputSchema,
        annotations: { ...(title ? { title } : {}), ...(op.annotations ?? CAUTIOUS) },
      });
      byName.set(name, op);
    }
  }
  return { list, byName };
}
