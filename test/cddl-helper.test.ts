// The CDDL validator the discovery tests rely on (test/helpers/cddl.ts), against the vendored AI
// Catalog schema: what it must accept and every kind of problem it must find, so a document that
// passes it passes because it is valid, not because the helper misread the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cddlValidator } from './helpers/cddl.ts';

const problems = cddlValidator(new URL('./fixtures/ai-catalog/ai-catalog.cddl', import.meta.url).pathname, 'AICatalog');
const entry = { identifier: 'urn:example:mcp:weather', displayName: 'Weather', mediaType: 'application/mcp-server-card+json', url: 'https://example.com/mcp/server-card' };

test('a minimal catalog, and one with every optional member, are valid', () => {
  assert.deepEqual(problems({ specVersion: '1.0', entries: [] }), []);
  const full = {
    specVersion: '1.0',
    host: { displayName: 'Example', identifier: 'did:web:example.com', documentationUrl: 'https://example.com/docs', logoUrl: 'https://example.com/logo.svg' },
    entries: [
      { ...entry, version: '1.2.0', description: 'Weather', tags: ['weather'], publisher: { identifier: 'example.com', displayName: 'Example', identityType: 'dns' }, updatedAt: '2026-11-29T12:00:00Z', metadata: { 'com.example.region': ['eu'] } },
      { identifier: 'urn:example:nested', displayName: 'Nested', mediaType: 'application/ai-catalog+json', data: { specVersion: '1.0', entries: [] }, trustManifest: { identity: 'spiffe://example.com/x', attestations: [{ type: 'SOC2', uri: 'https://example.com/soc2.pdf', mediaType: 'application/pdf', size: 10 }] } },
    ],
    metadata: { anything: { nested: true } },
  };
  assert.deepEqual(problems(full), []);
});

test('it finds a missing member, an unknown one, both or neither of url and data, and wrong types', () => {
  assert.deepEqual(problems({ entries: [] }), ['$: missing specVersion']);
  assert.deepEqual(problems({ specVersion: '1.0', entries: [{ ...entry, type: 'x' }] }), ['$.entries[0]: type is not a member']);
  assert.deepEqual(problems({ specVersion: '1.0', entries: [{ ...entry, data: {} }] }), ['$.entries[0]: exactly one of url, data (found 2)']);
  const { url: _url, ...bare } = entry;
  assert.deepEqual(problems({ specVersion: '1.0', entries: [bare] }), ['$.entries[0]: exactly one of url, data (found 0)']);
  assert.deepEqual(problems({ specVersion: 1, entries: {} }), ['$.specVersion: expected text, got 1', '$.entries: expected an array']);
  assert.deepEqual(problems({ specVersion: '1.0', entries: [{ ...entry, updatedAt: 'yesterday', tags: [1] }] }), ['$.entries[0].tags[0]: expected text, got 1', '$.entries[0].updatedAt: expected tdate, got "yesterday"']);
  assert.deepEqual(problems({ specVersion: '1.0', host: {}, entries: [] }), ['$.host: missing displayName']);
  assert.deepEqual(problems({ specVersion: '1.0', entries: [{ ...entry, trustManifest: { identity: 'x', attestations: [{ type: 'a', uri: 'u', mediaType: 'm', size: -1 }] } }] }), ['$.entries[0].trustManifest.attestations[0].size: expected uint, got -1']);
});
