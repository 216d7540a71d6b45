// What a probe keeps of a tool parameter's schema (src/probe/param-schema.ts), and which parameters
// execute_compose may fill with the chain's text (src/mesh/arguments.ts): free text only, never a
// choice, a number, a boolean, a formatted or patterned string. Pure; the doors are exercised with
// the real server-everything in test/ladder-runs.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolCapabilities } from '../src/probe/mcp-exchange.ts';
import { schemaValue, takesFreeText } from '../src/mesh/arguments.ts';

const paramsOf = (properties: Record<string, unknown>, required: string[] = []) =>
  toolCapabilities([{ name: 't', inputSchema: { type: 'object', properties, required } }])[0]!.params;

test('a parameter keeps its type, choices, format and pattern; only a plain string takes free text', () => {
  const params = paramsOf(
    {
      text: { type: 'string', description: 'Any text' },
      kind: { type: 'string', enum: ['error', 'success', null] },
      fixed: { const: 'v1' },
      unionOfLiterals: { anyOf: [{ const: 'a' }, { const: 'b' }, { type: 'null' }] },
      maybeNumber: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      numberOrBool: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
      stringOrNumber: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      site: { type: 'string', format: 'uri' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      untyped: {},
    },
    ['text', 'kind'],
  );
  const by = Object.fromEntries(params.map((p) => [p.name, p]));
  assert.deepEqual(by.text, { name: 'text', description: 'Any text', required: true, type: 'string' });
  assert.deepEqual(by.kind, { name: 'kind', description: undefined, required: true, type: 'string', enum: ['error', 'success'] });
  assert.deepEqual(by.fixed?.enum, ['v1']);
  assert.deepEqual(by.unionOfLiterals?.enum, ['a', 'b']);
  assert.equal(by.maybeNumber?.type, 'number');
  assert.equal(by.numberOrBool?.type, 'number|boolean');
  assert.equal(by.stringOrNumber?.type, 'string');
  assert.equal(by.site?.format, 'uri');
  assert.equal(by.code?.pattern, '^[A-Z]{3}$');
  const free = params.filter(takesFreeText).map((p) => p.name);
  assert.deepEqual(free, ['text', 'stringOrNumber', 'untyped']);
});

test('choices are bounded: too many, too long or not plain values leave the list marked partial', () => {
  const many = Array.from({ length: 80 }, (_, i) => `v${i}`);
  const [p] = paramsOf({ p: { type: 'string', enum: many } });
  assert.equal(p!.enum!.length, 50);
  assert.equal(p!.enum_partial, true);
  const [q] = paramsOf({ q: { enum: ['ok', 'x'.repeat(500), 'tab\there', { nested: true }] } });
  assert.deepEqual([q!.enum, q!.enum_partial], [['ok'], true]);
  // Deeply nested single branches are followed only a few levels (untrusted JSON).
  let deep: Record<string, unknown> = { type: 'integer' };
  for (let i = 0; i < 10_000; i++) deep = { anyOf: [deep, { type: 'null' }] };
  assert.doesNotThrow(() => paramsOf({ deep }));
});

test("a caller's value is checked against the choices and well-known formats, never against a partner's pattern", () => {
  const [kind, count, site, code] = paramsOf({
    kind: { type: 'string', enum: ['error', 'success'] },
    count: { type: 'integer', enum: [1, 2, 3] },
    site: { type: 'string', format: 'uri' },
    code: { type: 'string', pattern: '^(a+)+$' },
  });
  assert.deepEqual(schemaValue('success', kind), { value: 'success' });
  assert.deepEqual(schemaValue('hello', kind), { problem: 'must be one of "error", "success"' });
  assert.deepEqual(schemaValue('2', count), { value: 2 });
  assert.deepEqual(schemaValue(4, count), { problem: 'must be one of 1, 2, 3' });
  assert.deepEqual(schemaValue('https://example.org/a', site), { value: 'https://example.org/a' });
  assert.deepEqual(schemaValue('not a url', site), { problem: 'must be in the format uri' });
  assert.deepEqual(schemaValue(`${'a'.repeat(40)}!`, code), { value: `${'a'.repeat(40)}!` });
});
