// Ids come from a pooled random buffer: across refills they keep their shape and never repeat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId, requestId } from './ids.ts';

test('ids keep their shape and stay distinct across several refills of the pool', () => {
  const ids = Array.from({ length: 5000 }, () => newId('lst'));
  for (const id of ids) assert.match(id, /^lst_[0-9a-hjkmnp-tv-z]{20}$/);
  assert.equal(new Set(ids).size, ids.length);
});

test('a sane x-request-id is kept; anything else gets a fresh id', () => {
  assert.equal(requestId('trace-1.a:b'), 'trace-1.a:b');
  assert.match(requestId('bad id with spaces'), /^req_/);
  assert.match(requestId(undefined), /^req_/);
});
