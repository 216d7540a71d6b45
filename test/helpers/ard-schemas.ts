// The vendored discovery schemas, ready to validate live answers: ARD's manifest schema and its
// registry API (test/fixtures/ard, ards-project/ard-spec at 5fa2f5a) and the AI Catalog's CDDL
// (test/fixtures/ai-catalog, Agent-Card/ai-catalog at 634a09d), and the MCP Server Card
// (test/fixtures/mcp-server-card) that search results carry inline.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import manifestSchema from '../fixtures/ard/ai-catalog.schema.json' with { type: 'json' };
import serverCardSchema from '../fixtures/mcp-server-card/schema.json' with { type: 'json' };
import { cddlValidator } from './cddl.ts';

const fixture = (path: string) => new URL(`../fixtures/${path}`, import.meta.url);

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema(manifestSchema);
// The OpenAPI document sits beside the manifest schema, so its `./ai-catalog.schema.json#/...`
// references resolve to the schema's own $id.
const OPENAPI_ID = new URL('ard.openapi.yaml', manifestSchema.$id).href;
ajv.addSchema({ $id: OPENAPI_ID, components: (parseYaml(readFileSync(fixture('ard/ard.openapi.yaml'), 'utf8')) as { components: unknown }).components });

const component = (name: string) => ajv.compile({ $ref: `${OPENAPI_ID}#/components/schemas/${name}` });

/** A validator that answers ajv's errors as text, none when valid. */
const explain = (validate: ReturnType<typeof ajv.compile>) => (value: unknown): string[] => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));

export const ardManifestProblems = explain(ajv.getSchema(manifestSchema.$id)!);
export const ardSearchResponseProblems = explain(component('SearchResponse'));
export const ardErrorProblems = explain(component('Error'));
export const ardSearchRequestProblems = explain(component('SearchRequest'));
const SERVER_CARD_ID = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
ajv.addSchema({ ...serverCardSchema, $id: SERVER_CARD_ID });
export const serverCardProblems = explain(ajv.compile({ $ref: `${SERVER_CARD_ID}#/$defs/ServerCard` }));
export const aiCatalogProblems = cddlValidator(fixture('ai-catalog/ai-catalog.cddl').pathname, 'AICatalog');
