// The ready calls a demo builds (src/mesh/example-arguments.ts, src/mesh/ready-calls.ts): for
// input schemas of every common shape, the arguments are valid against the schema (ajv), or the
// values the builder could not make valid are named in `needs`, never silently wrong; a tool
// stored without its schema gets its call from its parameters, and a skill its A2A message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { exampleArguments } from '../src/mesh/example-arguments.ts';
import { readySkills, readyTools } from '../src/mesh/ready-calls.ts';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);

const object = (properties: Record<string, unknown>, required = Object.keys(properties), extra: Record<string, unknown> = {}) => ({ type: 'object', properties, required, ...extra });

const valid: [string, Record<string, unknown>][] = [
  ['no properties', { type: 'object', properties: {} }],
  ['optional properties are left out', object({ limit: { type: 'integer', minimum: 5 } }, [])],
  ['enum: the first value', object({ unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } })],
  ['const', object({ version: { const: 2 } })],
  ['default of the right type', object({ mode: { type: 'string', default: 'fast', maxLength: 10 } })],
  ['examples', object({ sku: { type: 'string', examples: ['AB-123'] } })],
  ['integer within bounds', object({ count: { type: 'integer', minimum: 3, maximum: 7 } })],
  ['exclusive bounds (number form)', object({ ratio: { type: 'number', exclusiveMinimum: 1, exclusiveMaximum: 2 } })],
  ['multipleOf', object({ step: { type: 'integer', minimum: 11, multipleOf: 5 } })],
  ['negative range', object({ offset: { type: 'number', maximum: -10 } })],
  ['string lengths', object({ code: { type: 'string', minLength: 30, maxLength: 40 }, tiny: { type: 'string', maxLength: 2 } })],
  ['formats', object({ site: { type: 'string', format: 'uri' }, mail: { type: 'string', format: 'email' }, at: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' }, day: { type: 'string', format: 'date' } })],
  ['an example in the description', object({ city: { type: 'string', description: 'The city, e.g. "Lisbon"' } })],
  ['boolean and null', object({ dry_run: { type: 'boolean' }, nothing: { type: 'null' } })],
  ['type lists', object({ maybe: { type: ['null', 'integer'], minimum: 2 } })],
  ['arrays with minItems', object({ tags: { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true }, none: { type: 'array', items: { type: 'number' } } })],
  ['tuples', object({ point: { type: 'array', items: [{ type: 'number' }, { type: 'string', enum: ['m'] }], minItems: 2 } })],
  ['nested objects', object({ filter: object({ field: { type: 'string' }, value: { type: 'integer', minimum: 1 } }) })],
  ['$ref into $defs', { type: 'object', properties: { user: { $ref: '#/$defs/User' } }, required: ['user'], $defs: { User: object({ name: { type: 'string' }, age: { type: 'integer', minimum: 18 } }) } }],
  ['$ref into definitions', { type: 'object', properties: { page: { $ref: '#/definitions/Page' } }, required: ['page'], definitions: { Page: { type: 'integer', minimum: 1, maximum: 50 } } }],
  ['anyOf', object({ id: { anyOf: [{ type: 'string', pattern: '^[0-9]+$' }, { type: 'integer', minimum: 1 }] } })],
  ['oneOf with null', object({ note: { oneOf: [{ type: 'string', minLength: 3 }, { type: 'null' }] } })],
  ['allOf', { allOf: [object({ a: { type: 'string' } }), object({ b: { type: 'integer', maximum: 0 } })] }],
  ['minProperties', { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, minProperties: 1 }],
  ['no type, bounds only', object({ level: { minimum: 4, maximum: 9 } })],
  ['any value', object({ anything: {}, yes: true })],
  ['camelCase names', object({ baseUrl: { type: 'string' }, userEmail: { type: 'string' }, searchQuery: { type: 'string' } })],
];

for (const [name, schema] of valid) {
  test(`example arguments are valid: ${name}`, () => {
    const built = exampleArguments(schema);
    assert.deepEqual(built.needs, [], JSON.stringify(built));
    assert.ok(ajv.validate(schema, built.arguments), `${JSON.stringify(built.arguments)}: ${ajv.errorsText()}`);
  });
}

test('sensible values: the first enum value, 1 when the bounds allow it, strings drawn from the property', () => {
  const built = exampleArguments(object({
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    count: { type: 'integer' },
    city: { type: 'string', description: 'The city, e.g. "Lisbon"' },
    message: { type: 'string' },
    topic: { type: 'string' },
    link: { type: 'string' },
  }));
  assert.deepEqual(built.arguments, { unit: 'celsius', count: 1, city: 'Lisbon', message: 'Hello from Rollcall', topic: 'example topic', link: 'https://example.com' });
});

test('draft 4 exclusive bounds (a boolean beside minimum and maximum) are kept', () => {
  // ajv validates draft 6 and later, where the bound is the number itself: checked by hand.
  const { arguments: args } = exampleArguments(object({ n: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 3, exclusiveMaximum: true } }));
  assert.equal(args.n, 2);
});

test('what cannot be made valid without guessing is named in needs', () => {
  const built = exampleArguments(object({
    code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
    missing: { $ref: '#/$defs/Nowhere' },
    impossible: { type: 'integer', minimum: 5, maximum: 4 },
    ok: { type: 'string', pattern: '^x+$', default: 'xx' },
  }));
  assert.deepEqual(built.needs, ['code', 'missing', 'impossible']);
  assert.equal(built.arguments.ok, 'xx', 'a pattern with the server\'s own default takes the default');
});

test('a schema that is not an object takes no arguments; recursive $refs stop', () => {
  assert.deepEqual(exampleArguments(undefined), { arguments: {}, needs: [] });
  assert.deepEqual(exampleArguments('nonsense'), { arguments: {}, needs: [] });
  const loop = { type: 'object', properties: { node: { $ref: '#/$defs/Node' } }, required: ['node'], $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } }, required: ['next'] } } };
  const built = exampleArguments(loop);
  assert.ok(built.needs.length === 1 && built.needs[0]!.startsWith('node.next.'), JSON.stringify(built.needs));
});

test('a tool stored before input schemas were kept gets its call from its parameters; a skill without examples a request naming it', () => {
  const { tools } = readyTools([{ name: 'add', description: 'Adds two numbers', params: [{ name: 'a', required: true, type: 'number' }, { name: 'b', required: true, type: 'integer' }, { name: 'note', required: false, type: 'string' }] }]);
  assert.deepEqual(tools, [{ description: 'Adds two numbers', call: { name: 'add', arguments: { a: 1, b: 1 } } }]);
  const ids = ['m1', 'm2'];
  const v1 = readySkills([{ name: 'summarize', title: 'Summarize', description: 'Summarizes a text.', params: [] }], 'a2a/1.0', () => ids.shift()!);
  assert.deepEqual(v1.skills[0]!.message, { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Please use your skill "Summarize" (Summarizes a text.) on a short example of your choice.' }] });
  const v03 = readySkills([{ name: 'summarize', params: [], examples: ['summarize this: hello', 'a second one'] }], 'a2a/0.3', () => ids.shift()!);
  assert.deepEqual(v03.skills[0], { id: 'summarize', name: 'summarize', other_examples: ['a second one'], message: { kind: 'message', messageId: 'm2', role: 'user', parts: [{ kind: 'text', text: 'summarize this: hello' }] } });
});

test('a hostile schema cannot hold or break the builder: fractional lengths, a self-referencing allOf, a malformed pointer', () => {
  // A fractional minLength padded nothing and looped forever.
  const fractional = exampleArguments({ type: 'object', properties: { q: { type: 'string', minLength: 20.5 } }, required: ['q'] });
  assert.equal([...(fractional.arguments.q as string)].length, 21);
  // allOf of 20 references to the root grew as 20^depth.
  const wide = exampleArguments({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], allOf: Array.from({ length: 20 }, () => ({ $ref: '#' })) });
  assert.ok(wide.needs.length === 0 || wide.needs.includes('(arguments)'), JSON.stringify(wide));
  const nested = exampleArguments({ type: 'object', properties: { x: { anyOf: Array.from({ length: 20 }, () => ({ $ref: '#' })) } }, required: ['x'] });
  assert.ok(typeof nested === 'object');
  // A malformed escape in a pointer threw URIError.
  const pointer = exampleArguments({ type: 'object', properties: { p: { $ref: '#/%zz' } }, required: ['p'] });
  assert.deepEqual(pointer, { arguments: { p: '<p>' }, needs: ['p'] });
});
