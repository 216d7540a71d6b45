import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeListingUrl, guessKind } from '../src/listings/url.ts';
import { hostAllowed, originAllowed } from '../src/http/origin.ts';

test('normalization: scheme and host lower-cased, punycode, default port and fragment dropped, path and query kept', () => {
  assert.equal(normalizeListingUrl('HTTPS://API.Example.COM:443/MCP?Q=A#top'), 'https://api.example.com/MCP?Q=A');
  assert.equal(normalizeListingUrl('http://example.com:80'), 'http://example.com/');
  assert.equal(normalizeListingUrl('http://example.com:8080/x'), 'http://example.com:8080/x');
  assert.equal(normalizeListingUrl('https://münchen.example/a'), 'https://xn--mnchen-3ya.example/a');
  assert.equal(normalizeListingUrl('  https://example.com/a  '), 'https://example.com/a');
});

test('kind guess: agent card paths and agent_card_url are agents, the rest MCP until probed', () => {
  assert.equal(guessKind('https://x.example/.well-known/agent.json', false), 'agent');
  assert.equal(guessKind('https://x.example/.well-known/AGENT-CARD.JSON', false), 'agent');
  assert.equal(guessKind('https://x.example/mcp', false), 'mcp');
  assert.equal(guessKind('https://x.example/anything', true), 'agent');
});

test('Host and Origin checks: loopback public hosts accept every loopback name, others only themselves', () => {
  assert.ok(hostAllowed('localhost:8080', 'http://localhost:8080'));
  assert.ok(hostAllowed('127.0.0.1:5555', 'http://localhost:8080'));
  assert.ok(hostAllowed('[::1]:5555', 'http://localhost:8080'));
  assert.ok(!hostAllowed('evil.example', 'http://localhost:8080'));
  assert.ok(hostAllowed('rollcall.example', 'https://rollcall.example'));
  assert.ok(hostAllowed('ROLLCALL.example:443', 'https://rollcall.example'));
  assert.ok(!hostAllowed('localhost', 'https://rollcall.example'));
  assert.ok(!hostAllowed(undefined, 'https://rollcall.example'));
  assert.ok(originAllowed(undefined, 'https://rollcall.example'));
  assert.ok(originAllowed('https://rollcall.example', 'https://rollcall.example'));
  assert.ok(!originAllowed('https://evil.example', 'https://rollcall.example'));
  assert.ok(!originAllowed('null', 'https://rollcall.example'));
});
