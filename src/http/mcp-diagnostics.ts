// The MCP conformance suite's diagnostic tools, which its 2026-07-28 server-stateless scenario calls
// by name. Served only when MCP_CONFORMANCE_TOOLS=1, at /api/mcp (and its aliases) in the 2026-07-28
// era: never in a production tools/list, never at a toolset's endpoint, never to a legacy client.
// Each one goes through the door's own rules, which every tool meets the same way:
// - test_missing_capability needs the client's sampling: without it the door refuses the call
//   (-32021 on HTTP 400); with it, the tool asks for one sample inside its result.
// - test_streaming_elicitation asks the client for input the 2026-07-28 way, an InputRequiredResult
//   (input requests inside the result), never a request of its own on the response stream.
// - test_logging_tool logs at debug, info and warning: the caller is sent those at or above the
//   level its request asked for, and none when it asked for no level.
import { clientLog } from '../platform/client-log.ts';
import type { ClientCapabilities, Ctx, ToolAnnotations } from '../platform/operation.ts';

export interface DiagnosticTool {
  /** What tools/list shows. No output schema: the results carry no structuredContent. */
  entry: { name: string; title: string; description: string; inputSchema: Record<string, unknown>; annotations: ToolAnnotations & { title: string } };
  /** Checked by the door before `run`, as an operation's are. */
  clientCapabilities?: ClientCapabilities;
  clientLogs?: boolean;
  /** An MCP result without `resultType` (the door adds `complete`), or an InputRequiredResult. */
  run(ctx: Ctx, params: Record<string, unknown>): Record<string, unknown>;
}

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };
const HARMLESS: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The client's answer to the input request `key`, when the call is a retry that carries it. */
const answered = (params: Record<string, unknown>, key: string) => (isObject(params.inputResponses) && isObject(params.inputResponses[key]) ? params.inputResponses[key] : undefined);

/** Asks the client for input inside the result; the client retries the call with its answer. */
const inputRequired = (key: string, method: string, requestParams: Record<string, unknown>) => ({
  resultType: 'input_required',
  inputRequests: { [key]: { method, params: requestParams } },
});

function tool(name: string, title: string, description: string, rest: Omit<DiagnosticTool, 'entry'>): DiagnosticTool {
  return { entry: { name, title, description, inputSchema: NO_ARGUMENTS, annotations: { title, ...HARMLESS } }, ...rest };
}

export const DIAGNOSTIC_TOOLS: readonly DiagnosticTool[] = [
  tool(
    'test_missing_capability',
    'Conformance: needs sampling',
    'MCP conformance diagnostic (MCP_CONFORMANCE_TOOLS=1 only). Needs the client\'s sampling capability: a request that does not declare it is refused with -32021 on HTTP 400; one that does is asked for a sample inside the result, and its retry with the answer completes.',
    {
      clientCapabilities: { sampling: {} },
      run: (_ctx, params) =>
        answered(params, 'sample')
          ? text('The client declared sampling and answered the sampling request.')
          : inputRequired('sample', 'sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Reply with the word OK.' } }], maxTokens: 8 }),
    },
  ),
  tool(
    'test_streaming_elicitation',
    'Conformance: asks for input inside the result',
    'MCP conformance diagnostic (MCP_CONFORMANCE_TOOLS=1 only). Needs the client\'s elicitation capability and asks for a confirmation the 2026-07-28 way: an InputRequiredResult carrying the elicitation, never a request of its own on the response stream. The retry with the answer completes.',
    {
      clientCapabilities: { elicitation: { form: {} } },
      run: (_ctx, params) => {
        const answer = answered(params, 'confirm');
        if (answer) return text(`The client answered the elicitation: ${typeof answer.action === 'string' ? answer.action.slice(0, 16) : 'no action'}.`);
        return inputRequired('confirm', 'elicitation/create', {
          mode: 'form',
          message: 'Confirm the conformance check.',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' } }, required: ['ok'] },
        });
      },
    },
  ),
  tool(
    'test_logging_tool',
    'Conformance: logs at three levels',
    'MCP conformance diagnostic (MCP_CONFORMANCE_TOOLS=1 only). Logs one message at debug, info and warning: a request whose _meta names io.modelcontextprotocol/logLevel is sent those at or above that level (notifications/message on its SSE response stream, before the result); a request without it is sent none.',
    {
      clientLogs: true,
      run: (ctx) => {
        for (const level of ['debug', 'info', 'warning'] as const) clientLog(ctx, level, { message: `test_logging_tool: one message at ${level}` }, 'test_logging_tool');
        return text('Logged one message at debug, info and warning.');
      },
    },
  ),
];
