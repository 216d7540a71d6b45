// Intents over generic words, on the real catalog (../shared/data, the official MCP registry's
// seed): words every entry uses ("open", "issues") never outrank the words that name the task,
// a glued product name is not read as its parts ("ticketmaster" is not about issue tickets),
// words the catalog does not know ("Tokyo", "paragraph") do not hide the servers that do the
// task, and a need nothing serves still finds little.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchEngine } from '../src/search/engine.ts';
import { loadSeed } from '../bench/search-quality/seed.ts';

const engine = new SearchEngine();
engine.index(loadSeed());
const top = (q: string, n = 10) => engine.query(q, {}, n).map((h) => h.id.replace('io.github.', ''));

describe('search: intents over generic words', () => {
  it('a pull request reaches the git servers; a hit on "open" alone ranks below them', () => {
    const hits = engine.query('open a pull request', {}, 10);
    assert.equal(hits[0]?.id, 'io.github.oschina/mcp-gitee', JSON.stringify(hits.map((h) => [h.id, h.why])));
    const firstOnlyOpen = hits.findIndex((h) => h.why.every((w) => w === 'open'));
    const firstPullRequest = hits.findIndex((h) => h.why.some((w) => w.startsWith('pull request')));
    assert.ok(firstOnlyOpen === -1 || firstOnlyOpen > firstPullRequest, JSON.stringify(hits.map((h) => [h.id, h.why])));
  });

  it('"github issues" finds GitHub and issue trackers, not Ticketmaster or Siri Shortcuts', () => {
    const ids = top('github issues');
    assert.equal(ids[0], 'ddukbg/github-enterprise-mcp');
    assert.ok(!ids.includes('delorenj/mcp-server-ticketmaster'), ids.join(', '));
    assert.ok(!ids.includes('dvcrn/mcp-server-siri-shortcuts'), ids.join(', '));
    assert.ok(ids.includes('tacticlaunch/mcp-linear'), ids.join(', '));
  });

  it('words the catalog does not know leave the task words to choose', () => {
    assert.ok(top('find a cheap flight to Tokyo', 3).includes('donghyun-chae/mcp-amadeus'), top('find a cheap flight to Tokyo').join(', '));
    assert.equal(top('translate this paragraph into Spanish')[0], 'translated/lara-mcp');
    assert.equal(top('make a bar chart of monthly sales')[0], 'gongrzhe/quickchart-mcp-server');
  });

  it('a need nothing serves still finds little', () => {
    for (const q of ['order pizza delivery', 'car insurance quotes', 'recipe ideas for a vegan dessert', 'book a table at a restaurant for dinner']) {
      assert.ok(top(q).length <= 2, `${q}: ${top(q).join(', ')}`);
    }
  });
});
