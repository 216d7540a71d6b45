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
  // Probes are signed unless PROBE_SIGNATURES says 0 (or false).
  assert.equal(loadConfig({}).probeSignatures, true);
  assert.equal(loadConfig({ PROBE_SIGNATURES: '0' }).probeSignatures, false);
  assert.equal(loadConfig({ PROBE_SIGNATURES: 'false' }).probeSignatures, false);
  assert.throws(() => loadConfig({ PROBE_SIGNATURES: 'off' }), /PROBE_SIGNATURES/);
  assert.throws(() => loadConfig({ PUBLIC_BASE_URL: 'not a url' }), /PUBLIC_BASE_URL/);
  assert.throws(() => loadConfig({ DATABASE_URL: 'sqlite://x' }), /DATABASE_URL/);
});

test('every count is a whole number: 0 only where it means off, never a fraction', () => {
  assert.throws(() => loadConfig({ PROBE_PER_HOST: '0.5' }), /PROBE_PER_HOST: must be a whole number/);
  assert.throws(() => loadConfig({ PROBE_CONCURRENCY: '0.5' }), /PROBE_CONCURRENCY: must be a whole number/);
  assert.throws(() => loadConfig({ PROBE_PER_HOST: '0' }), /PROBE_PER_HOST: must be 1 or more/);
  assert.throws(() => loadConfig({ PROBE_CONCURRENCY: '0' }), /PROBE_CONCURRENCY: must be 1 or more/);
  assert.throws(() => loadConfig({ RATE_LIMIT_READ_PER_MIN: '-1' }), /RATE_LIMIT_READ_PER_MIN: must be 0 or more/);
  assert.throws(() => loadConfig({ PROBE_HOST_PER_HOUR: '2.5' }), /PROBE_HOST_PER_HOUR: must be a whole number/);
  assert.throws(() => loadConfig({ JOB_LEASE_S: 'ten' }), /JOB_LEASE_S/);
  // Every bad variable is named at once.
  assert.throws(() => loadConfig({ PROBE_PER_HOST: '0.5', PROBE_TIMEOUT_MS: '0' }), /PROBE_TIMEOUT_MS: must be 1 or more; PROBE_PER_HOST: must be a whole number/);
  assert.equal(loadConfig({ PROBE_HOST_PER_HOUR: '0' }).probeHostPerHour, 0, '0 turns a budget off');
});

test('x402: off by default; on, it needs a facilitator, a payee and a known or given asset', () => {
  const off = loadConfig({});
  assert.equal(off.x402.enabled, false);
  assert.deepEqual([off.x402.network, off.x402.assetDecimals, off.x402.maxTimeoutS, off.x402.timeoutMs], ['base-sepolia', 6, 60, 15000]);
  const on = { X402_ENABLED: '1', X402_FACILITATOR_URL: 'https://x402.org/facilitator/', X402_PAY_TO: '0xabc' };
  const c = loadConfig(on);
  assert.equal(c.x402.facilitatorUrl, 'https://x402.org/facilitator');
  assert.deepEqual([c.x402.asset, c.x402.assetName, c.x402.assetVersion], ['0x036CbD53842c5426634e7929541eC2318f3dCF7e', 'USDC', '2']);
  assert.equal(loadConfig({ ...on, X402_NETWORK: 'base' }).x402.assetName, 'USD Coin');
  assert.throws(() => loadConfig({ X402_ENABLED: '1', X402_PAY_TO: '0xabc' }), /X402_FACILITATOR_URL/);
  assert.throws(() => loadConfig({ ...on, X402_NETWORK: 'solana' }), /X402_ASSET/);
  const custom = loadConfig({ ...on, X402_NETWORK: 'solana', X402_ASSET: 'EPjFWdd5', X402_ASSET_DECIMALS: '6' });
  assert.deepEqual([custom.x402.asset, custom.x402.assetName], ['EPjFWdd5', undefined]);
  assert.throws(() => loadConfig({ ...on, X402_MAX_TIMEOUT_S: '0' }), /X402_MAX_TIMEOUT_S/);
});

test("REGISTRY_META_KEY: the public host reversed, io.rollcall.local for a host that names no domain, or a reverse-DNS name given", () => {
  assert.equal(loadConfig({ PUBLIC_BASE_URL: 'https://Rollcall.Example.com/' }).registryMetaKey, 'com.example.rollcall');
  for (const base of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'http://intranet']) {
    assert.equal(loadConfig({ PUBLIC_BASE_URL: base }).registryMetaKey, 'io.rollcall.local', base);
  }
  assert.equal(loadConfig({ REGISTRY_META_KEY: 'org.example.registry' }).registryMetaKey, 'org.example.registry');
  assert.throws(() => loadConfig({ REGISTRY_META_KEY: 'not a key' }), /REGISTRY_META_KEY: must be reverse-DNS/);
});
