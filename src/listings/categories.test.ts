// categoryFromProbe: a category only from the words a probe saw, `other` when they settle nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { categoryFromProbe, categoryLabel } from './categories.ts';

const tool = (name: string, description?: string) => ({ name, ...(description ? { description } : {}) });

test('nothing seen, or words that point nowhere, is other', () => {
  assert.equal(categoryFromProbe({ capabilities: [] }), 'other');
  assert.equal(categoryFromProbe({ name: 'weather-now', capabilities: [tool('current_weather', 'Current temperature and sky conditions for a city.'), tool('forecast')] }), 'other');
  assert.equal(categoryLabel('other'), 'Other');
});

test('one word is not enough, and a tie settles nothing', () => {
  assert.equal(categoryFromProbe({ name: 'Git helper', capabilities: [] }), 'other');
  assert.equal(categoryFromProbe({ name: 'SQL on Slack', description: 'Ask your database from a Slack chat.', capabilities: [] }), 'other');
});

test('tool names speak as words: split at _, - and case changes', () => {
  assert.equal(categoryFromProbe({ capabilities: [tool('create_pull_request'), tool('listCommits'), tool('get-repository')] }), 'code-devtools');
  assert.equal(categoryFromProbe({ name: 'Warehouse', capabilities: [tool('run_sql', 'Run a SQL query against the database'), tool('export_csv')] }), 'data-analytics');
  assert.equal(categoryFromProbe({ capabilities: [tool('create_invoice'), tool('refund_payment', 'Refund a Stripe payment')] }), 'finance');
  assert.equal(categoryLabel('finance'), 'Finance & commerce');
});

test('words are whole words: a part of a longer word does not count', () => {
  // "codec", "gitter" and "repost" hold code, git and repo without meaning them.
  assert.equal(categoryFromProbe({ description: 'A codec for gitter reposts', capabilities: [] }), 'other');
});
