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
 * Every result: a success object with `ok: true`, or a failure in the REST error shape (`isError`).
 * A 402 also carries the x402 MCP transport's offer (`x402/error`, mcp.ts): it is part of the
 * failure's schema, since clients that listed the tools check error results against it too.
 */
const successDefault = z.looseObject({ ok: z.literal(true) });
const failure = z.object({
  ok: z.literal(false),
  error: z.looseObject({ code: z.string(), message: z.string() }),
  request_id: z.string(),
  'x402/error': z.looseObject({ code: z.literal(402), message: z.string(), data: z.looseObject({ x402Version: z.number() }) }).optional(),
});

/** JSON Schema of a result as Rollcall sends it (draft 2020-12, `$schema` left out as in inputs). */
function outputJsonSchema(success: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(z.union([success, failure]), { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  // MCP wants an object at the root: the union is an object either way.
  return { type: 'object', ...json };
}

export function buildToolList(catalog: readonly AnyOperation[]): { list: ToolEntry[]; byName: Map<string, AnyOperation> } {
  const list: ToolEntry[] = [];
  const byName = new Map<string, AnyOperation>();
  for (const op of catalog) {
    if (op.tool === false) continue;
    const inputSchema = inputJsonSchema(op.toolInput ?? op.input);
    const outputSchema = outputJsonSchema(op.output ?? successDefault);
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
