// The search engine alone (src/search): every kind of query on a small hand-made corpus, filters,
// remove and replace, junk queries, the no-match floor, near-tie ordering, determinism. Pure and fast.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NEAR_TIE, queryProblem, readableName, type SearchDoc, SearchEngine } from '../src/search/engine.ts';
import { SHOWN_DESCRIPTION_CHARS } from '../src/search/shown.ts';
import { SlotLists } from '../src/search/slot-lists.ts';

function doc(id: string, description: string, extra: Partial<SearchDoc> = {}): SearchDoc {
  return { id, kind: 'mcp', source: 'catalog', name: id, title: id.slice(id.lastIndexOf('/') + 1), description, capabilities: [], tags: [], ...extra };
}

const CORPUS: SearchDoc[] = [
  doc('io.github.acme/postgres-mcp', 'Query PostgreSQL databases with read-only SQL from your agent.'),
  doc('io.github.acme/mysql-mcp', 'Run SQL queries against MySQL databases.'),
  doc('io.github.kube/kubernetes-mcp-server', 'Manage Kubernetes clusters: pods, deployments and logs.'),
  doc('io.github.ops/k8s-go', 'Connects to k8s clusters with kubectl.'),
  doc('io.github.chat/slack-mcp', 'Read and post Slack messages in channels.'),
  doc('io.github.chat/discord-mcp', 'A Discord bot for your server.'),
  doc('io.github.git/github-mcp', 'GitHub issues, pull requests and repositories.'),
  doc('io.github.notes/obsidian-mcp', 'Read and search an Obsidian vault of Markdown files.'),
  doc('io.github.notes/notion-mcp', 'Pages and databases in Notion.'),
  doc('io.github.wx/weather', 'Current weather and forecasts for any city.'),
  doc('io.github.web/playwright-mcp', 'Browser automation with Playwright: click, type, take screenshots.'),
  doc('io.github.cache/redis-mcp', 'Key-value access to Redis.'),
  doc('io.github.money/stripe-mcp', 'Create payments, invoices and subscriptions with Stripe.'),
  doc('travel-agent', 'Books flights and hotels for a trip.', { kind: 'agent', source: 'listing', name: 'Travel Agent', title: 'Travel Agent', capabilities: ['flight search', 'hotel booking'], tags: ['travel'] }),
  doc('support-agent', 'Answers customer support tickets.', { kind: 'agent', source: 'listing', name: 'Support Agent', title: 'Support Agent', capabilities: ['helpdesk'] }),
];

function engine(docs: SearchDoc[] = CORPUS): SearchEngine {
  const e = new SearchEngine();
  e.index(docs);
  return e;
}

const ids = (e: SearchEngine, q: string, limit = 10) => e.query(q, {}, limit).map((h) => h.id);

describe('search engine: query kinds', () => {
  const e = engine();

  it('finds a keyword in names and descriptions, best match first', () => {
    const hits = ids(e, 'kubernetes');
    assert.equal(hits[0], 'io.github.kube/kubernetes-mcp-server');
    assert.ok(hits.includes('io.github.ops/k8s-go'), 'k8s is a synonym of kubernetes');
    assert.ok(!hits.includes('io.github.wx/weather'));
  });

  it('reads a task in a sentence, ignoring filler words', () => {
    const hits = ids(e, 'I need to query my postgres database from my agent');
    assert.equal(hits[0], 'io.github.acme/postgres-mcp');
    assert.ok(hits.indexOf('io.github.acme/mysql-mcp') > 0, 'another SQL database ranks below');
  });

  it('matches a need described without the product words', () => {
    const hits = ids(e, 'store and search notes in my second brain');
    assert.ok(hits.slice(0, 2).includes('io.github.notes/obsidian-mcp'), hits.join());
    assert.ok(hits.includes('io.github.notes/notion-mcp'), hits.join());
    const home = ids(e, 'charge my customers every month');
    assert.equal(home[0], 'io.github.money/stripe-mcp');
  });

  it('corrects misspellings, transpositions included, and says so', () => {
    for (const [q, want] of [
      ['kubernetse', 'io.github.kube/kubernetes-mcp-server'],
      ['postgers', 'io.github.acme/postgres-mcp'],
      ['obsidain', 'io.github.notes/obsidian-mcp'],
      ['wheather', 'io.github.wx/weather'],
    ] as const) {
      const hits = e.query(q, {}, 5);
      assert.equal(hits[0]?.id, want, q);
      assert.ok(hits[0]!.why.some((w) => w.includes('(spelling)')), hits[0]!.why.join());
    }
  });

  it('completes the start of a word', () => {
    assert.equal(ids(e, 'playwr')[0], 'io.github.web/playwright-mcp');
  });

  it('serves both needs of a two-need query', () => {
    const top = ids(e, 'github issues and slack messages', 3);
    assert.ok(top.includes('io.github.git/github-mcp'), top.join());
    assert.ok(top.includes('io.github.chat/slack-mcp'), top.join());
  });

  it('returns few or no hits for a need nothing serves', () => {
    for (const q of ['book a table at a restaurant for dinner', 'gardening tips for growing tomatoes', 'adopt a puppy from a shelter']) {
      assert.ok(e.query(q, {}, 10).length <= 2, q);
    }
    assert.deepEqual(ids(e, 'zzqx vlorp'), []);
  });

  it('reports scores 0-100 relative to the best hit, the raw relevance, and why', () => {
    const hits = e.query('redis cache', {}, 10);
    assert.equal(hits[0]!.id, 'io.github.cache/redis-mcp');
    assert.equal(hits[0]!.score, 100);
    for (const h of hits) {
      assert.ok(h.score >= 0 && h.score <= 100);
      assert.ok(h.relevance > 0);
      assert.ok(h.why.length > 0);
      assert.equal(h.doc.id, h.id);
    }
    assert.ok(hits[0]!.why.includes('redis'));
  });
});

describe('search engine: filters, remove, replace', () => {
  it('filters by kind, source and ids', () => {
    const e = engine();
    assert.deepEqual(ids(e, 'travel'), ['travel-agent']);
    assert.deepEqual(
      e.query('flights and hotels', { kind: 'mcp' }, 10).map((h) => h.id),
      [],
    );
    assert.deepEqual(
      e.query('flights hotels', { source: 'listing' }, 10).map((h) => h.id),
      ['travel-agent'],
    );
    const only = new Set(['io.github.acme/mysql-mcp']);
    assert.deepEqual(
      e.query('sql databases', { ids: only }, 10).map((h) => h.id),
      ['io.github.acme/mysql-mcp'],
    );
    assert.deepEqual(e.query('kubernetes', { kind: 'agent' }, 10), []);
  });

  it('removes entries and replaces an entry indexed again under the same id', () => {
    const e = engine();
    assert.equal(e.size, CORPUS.length);
    e.remove(['io.github.cache/redis-mcp', 'no-such-id']);
    assert.equal(e.size, CORPUS.length - 1);
    assert.deepEqual(ids(e, 'redis'), []);
    e.index([doc('io.github.wx/weather', 'Tide tables and surf reports.')]);
    assert.equal(e.size, CORPUS.length - 1);
    assert.ok(ids(engine(), 'current city').includes('io.github.wx/weather'));
    assert.ok(!ids(e, 'current city').includes('io.github.wx/weather'), 'the old description is gone');
    assert.deepEqual(ids(e, 'tide tables'), ['io.github.wx/weather']);
    e.index([doc('io.github.cache/redis-mcp', 'Key-value access to Redis.')]);
    assert.deepEqual(ids(e, 'redis'), ['io.github.cache/redis-mcp']);
  });

  it('leaves a document indexed again unchanged as it is, and replaces it when any field changed', () => {
    const e = engine();
    const before = e.query('travel flights', {}, 10);
    const travel = CORPUS.find((d) => d.id === 'travel-agent')!;
    // Indexed once, a document has no digest (the index built at start digests nothing): its first
    // replacement is analysed. From then on a re-probe of an unchanged card analyses nothing, and
    // every answer stays the same.
    assert.equal(e.index([{ ...travel }]), 1);
    assert.equal(e.index([{ ...travel }, { ...travel, capabilities: [...travel.capabilities] }]), 0);
    assert.deepEqual(e.query('travel flights', {}, 10), before);
    assert.equal(e.size, CORPUS.length);
    // Each field counts: a change anywhere replaces the document.
    const changes: Partial<SearchDoc>[] = [
      { name: 'Trip Agent' },
      { title: 'Trip Agent' },
      { description: 'Books trains and hotels for a trip.' },
      { capabilities: ['train search', 'hotel booking'] },
      { tags: ['rail'] },
      { url: 'https://trip.example/card' },
      { kind: 'mcp' },
      { source: 'catalog' },
    ];
    for (const change of changes) assert.equal(e.index([{ ...travel, ...change }]), 1, `changed: ${Object.keys(change)[0]}`);
    assert.equal(e.size, CORPUS.length);
    assert.equal(e.index([{ ...travel, description: 'Plans quokka safaris.', capabilities: ['quokka tours'] }]), 1);
    const [hit] = e.query('quokka', {}, 10);
    assert.equal(hit?.id, 'travel-agent');
    assert.deepEqual([hit?.doc.description, hit?.doc.capabilities], ['Plans quokka safaris.', ['quokka tours']], 'what it said before is gone');
    // Removed and indexed again, the same document is analysed anew (and twice, as when first seen).
    e.remove(['travel-agent']);
    assert.equal(e.index([travel]), 1);
    assert.equal(e.index([travel]), 1);
    assert.equal(e.index([travel]), 0);
    assert.ok(ids(e, 'flights').includes('travel-agent'));
  });

  it('limit bounds the hits; an empty engine finds nothing', () => {
    const e = engine();
    assert.equal(e.query('databases', {}, 1).length, 1);
    assert.deepEqual(e.query('databases', {}, 0), []);
    assert.deepEqual(new SearchEngine().query('databases', {}, 10), []);
  });
});

describe('search engine: junk queries', () => {
  it('explains why a query cannot be searched', () => {
    assert.match(queryProblem('')!, /empty/);
    assert.match(queryProblem('    ')!, /empty/);
    assert.match(queryProblem('?!* ---')!, /no letters or digits/);
    assert.match(queryProblem('the mcp server')!, /only common words/);
    assert.match(queryProblem('I need a tool for the Model Context Protocol')!, /only common words/);
    assert.match(queryProblem('x'.repeat(501))!, /longer than 500/);
    assert.equal(queryProblem('postgres'), undefined);
    assert.equal(queryProblem('k8s'), undefined);
    assert.equal(queryProblem('I need a tool to read my email'), undefined);
  });

  it('returns no hits for a junk query', () => {
    const e = engine();
    assert.deepEqual(e.query('the mcp server', {}, 10), []);
    assert.deepEqual(e.query('', {}, 10), []);
  });
});

describe('search engine: trust only orders near-ties', () => {
  const twins = [
    doc('a/alpha', 'Weather forecasts for cities.'),
    doc('b/beta', 'Weather forecasts for cities.'),
    doc('c/gamma', 'Weather forecasts for cities.'),
    doc('d/weather', 'Weather, weather forecasts and weather alerts for cities and weather maps.'),
  ];

  it('reorders hits of equal relevance by the trust signal', () => {
    const e = engine(twins);
    const plain = e.query('weather forecasts', {}, 10);
    const trust: Record<string, number> = { 'a/alpha': 1, 'b/beta': 2, 'c/gamma': 3, 'd/weather': 0 };
    const ranked = e.query('weather forecasts', {}, 10, (id) => trust[id] ?? 0);
    const twinsPlain = plain.filter((h) => h.id !== 'd/weather').map((h) => h.id);
    assert.deepEqual(twinsPlain, ['a/alpha', 'b/beta', 'c/gamma'], 'ties are broken by id without a trust signal');
    const twinsRanked = ranked.filter((h) => h.id !== 'd/weather').map((h) => h.id);
    assert.deepEqual(twinsRanked, ['c/gamma', 'b/beta', 'a/alpha']);
  });

  it('never lets trust lift a hit over one that is clearly more relevant', () => {
    const e = engine(twins);
    const plain = e.query('weather', {}, 10);
    assert.equal(plain[0]!.id, 'd/weather');
    const ranked = e.query('weather', {}, 10, (id) => (id === 'd/weather' ? -100 : 100));
    // Every pair out of relevance order is a near-tie.
    for (let i = 0; i < ranked.length; i++) {
      for (let j = i + 1; j < ranked.length; j++) {
        if (ranked[i]!.relevance < ranked[j]!.relevance) {
          assert.ok(ranked[i]!.relevance >= ranked[j]!.relevance * (1 - NEAR_TIE), `${ranked[i]!.id} above ${ranked[j]!.id}`);
        }
      }
    }
    assert.ok(plain[0]!.relevance > plain[1]!.relevance / (1 - NEAR_TIE), 'd/weather is clearly ahead');
    assert.equal(ranked[0]!.id, 'd/weather');
  });
});

describe('search engine: determinism', () => {
  it('gives the same hits whatever the indexing order and however often asked', () => {
    const a = engine(CORPUS);
    const b = engine([...CORPUS].reverse());
    for (const q of ['databases', 'kubernetes clusters', 'notes', 'messages', 'postgers', 'flights and hotels']) {
      const ha = a.query(q, {}, 10);
      assert.deepEqual(
        ha.map((h) => [h.id, h.score]),
        b.query(q, {}, 10).map((h) => [h.id, h.score]),
        q,
      );
      assert.deepEqual(ha, a.query(q, {}, 10), q);
    }
  });
});

describe('search engine: names', () => {
  it('reads registry names without their namespace boilerplate', () => {
    assert.equal(readableName('io.github.21st-dev/magic-mcp'), '21st-dev magic-mcp');
    assert.equal(readableName('com.example.team/agent'), 'example team agent');
    assert.equal(readableName('Travel Agent'), 'Travel Agent');
  });
});

describe('search engine: what it keeps per document', () => {
  it('shows a hit by its display fields: the description cut, no tags', () => {
    const long = `Weather forecasts ${'and more forecasts '.repeat(30)}`;
    const e = engine([
      doc('io.github.wx/forecast', long, { tags: ['meteo'], url: 'https://wx.example/mcp', capabilities: ['get forecast'] }),
      doc('plain-agent', 'Weather alerts.', { kind: 'agent', source: 'listing', name: 'Plain Agent', title: undefined }),
    ]);
    const [first, second] = e.query('weather', {}, 10);
    assert.deepEqual(first!.doc, {
      id: 'io.github.wx/forecast',
      kind: 'mcp',
      source: 'catalog',
      name: 'io.github.wx/forecast',
      title: 'forecast',
      description: long.slice(0, SHOWN_DESCRIPTION_CHARS),
      capabilities: ['get forecast'],
      url: 'https://wx.example/mcp',
    });
    assert.deepEqual(second!.doc, { id: 'plain-agent', kind: 'agent', source: 'listing', name: 'Plain Agent', description: 'Weather alerts.', capabilities: [] });
    assert.deepEqual(ids(e, 'meteo'), ['io.github.wx/forecast'], 'tags are searched though not kept');
  });

  it('after replacing and removing documents, matches a fresh index of the documents left', () => {
    // Enough documents that common terms' postings become typed arrays, and enough replacements
    // that the per-document lists are compacted several times.
    const variant = (d: SearchDoc, round: number): SearchDoc => ({ ...d, id: `${d.id}-${round % 7}`, description: `${d.description} Round ${round} extra${round % 5} words.` });
    const all = Array.from({ length: 140 }, (_, i) => variant(CORPUS[i % CORPUS.length]!, i));
    const churned = engine(all);
    for (let round = 0; round < 60; round++) churned.index(all.map((d, i) => ({ ...d, description: `${d.description} pass${(round + i) % 9}` })));
    churned.index(all);
    const gone = all.filter((_, i) => i % 3 === 0).map((d) => d.id);
    churned.remove(gone);
    churned.index(all.filter((_, i) => i % 6 === 0).map((d) => ({ ...d, id: `${d.id}-back` })));
    const left = [...all.filter((d) => !gone.includes(d.id)), ...all.filter((_, i) => i % 6 === 0).map((d) => ({ ...d, id: `${d.id}-back` }))];
    const fresh = engine(left);
    assert.equal(churned.size, fresh.size);
    assert.deepEqual(churned.surfaceCounts(), fresh.surfaceCounts());
    assert.ok(!churned.surfaceCounts().some(([w]) => w.startsWith('pass')), 'words of replaced versions are gone');
    for (const q of ['databases', 'kubernetes clusters', 'round 12', 'extra3', 'postgers', 'flights and hotels', 'notes', 'weathr']) {
      assert.deepEqual(churned.query(q, {}, 20), fresh.query(q, {}, 20), q);
    }
  });

  it('forgets every word of documents that all left', () => {
    const e = engine();
    e.remove(CORPUS.map((d) => d.id));
    assert.equal(e.size, 0);
    assert.deepEqual(e.surfaceCounts(), []);
    e.index([doc('io.github.wx/weather', 'Current weather and forecasts for any city.')]);
    assert.deepEqual(ids(e, 'kuberntes'), [], 'no spelling fix toward a word that left');
    assert.deepEqual(e.surfaceCounts(), engine([doc('io.github.wx/weather', 'Current weather and forecasts for any city.')]).surfaceCounts());
  });
});

describe('search engine: per-slot integer lists', () => {
  it('keep each slot\'s list through replacements, clears and compactions', () => {
    const lists = new SlotLists();
    const model = new Map<number, number[]>();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let op = 0; op < 30_000; op++) {
      const slot = random(500);
      if (random(5) === 0) {
        lists.clear(slot);
        model.delete(slot);
      } else {
        const values = Array.from({ length: random(40) }, () => random(1_000_000));
        lists.set(slot, values);
        model.set(slot, values);
      }
    }
    for (let slot = 0; slot < 520; slot++) {
      const data = lists.data(slot);
      assert.deepEqual([...data.subarray(lists.begin(slot), lists.end(slot))], model.get(slot) ?? [], `slot ${slot}`);
    }
  });
});
