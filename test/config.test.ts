import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, ConfigError } from '../src/config.ts';

test('defaults follow DESIGN.md', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.publicBaseUrl, 'http://localhost:8080');
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.probeAllowPrivate, false);
  assert.equal(c.probeIntervalH, 6);
  assert.equal(c.talkGraceDays, 7);
  assert.equal(c.rateLimitReadPerMin, 600);
  assert.equal(c.rateLimitWritePerMin, 120);
  assert.equal(c.bodyLimitBytes, 65536);
});

test('values are parsed and checked', () => {
  const c = loadConfig({ PORT: '9000', PUBLIC_BASE_URL: 'https://rollcall.example/', PROBE_ALLOW_PRIVATE: '1', RATE_LIMIT_READ_PER_MIN: '0' });
  assert.equal(c.publicBaseUrl, 'https://rollcall.example');
  assert.equal(c.probeAllowPrivate, true);
  assert.equal(c.rateLimitReadPerMin, 0);
  assert.throws(() => loadConfig({ PORT: '70000' }), ConfigError);
  assert.throws(() => loadConfig({ PROBE_ALLOW_PRIVATE: 'yes' }), /PROBE_ALLOW_PRIVATE/);
  assert.throws(() => loadConfig({ PUBLIC_BASE_URL: 'not a url' }), /PUBLIC_BASE_URL/);
  assert.throws(() => loadConfig({ DATABASE_URL: 'sqlite://x' }), /DATABASE_URL/);
});
