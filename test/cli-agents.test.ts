// `rollcall list` of an A2A agent by its origin when its card URL is listed already, in this
// process and against a running Rollcall (--server): the real bin on a fresh store of this run's
// engine, agents on loopback addresses of their own. Apart from test/cli.test.ts so each file of
// spawned commands stays well within the suite's time per file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { freshStore, startApp, type TestStore } from './helpers/app.ts';
import { startA2aAgent } from './peers/a2a-agent.ts';
import { doc, runBin } from './helpers/rollcall-bin.ts';

let store: TestStore;

before(async () => {
  store = await freshStore();
  await store.db.close(); // the commands open their own connections
});
after(async () => {
  await store.drop();
});

const rollcall = (args: string[], env: Record<string, string | undefined> = {}) => runBin(store, args, env);
const LOCAL = { PROBE_ALLOW_PRIVATE: '1' };

test('list: an agent at its origin, whose card URL is listed already, answers with that listing: kind agent and its own score (here and with --server)', async () => {
  // Each agent on a loopback address of its own: a host of its own, with its own budgets.
  const [here, there] = await Promise.all([startA2aAgent({ host: '127.0.0.2' }), startA2aAgent({ host: '127.0.0.3' })]);
  const server = await startApp({ probing: true, env: LOCAL });
  try {
    // In this process: the card's URL first, then the agent's origin, whose probe finds that same card.
    const byCard = doc(await rollcall(['list', here.cardUrl, '--json'], LOCAL));
    assert.deepEqual([byCard.kind, byCard.lane], ['agent', 'active']);
    const byOrigin = await rollcall(['list', here.baseUrl, '--json'], LOCAL);
    assert.equal(byOrigin.code, 0, byOrigin.err);
    const answer = doc(byOrigin);
    assert.equal(answer.listing_id, byCard.listing_id, 'the listing the origin reaches');
    assert.equal(answer.kind, 'agent');
    assert.equal(answer.url, here.cardUrl);
    assert.equal(answer.probe.score, byCard.probe.score);
    assert.equal(answer.live, true);
    assert.equal(answer.duplicate.url, `${here.baseUrl}/`);
    assert.notEqual(answer.duplicate.listing_id, byCard.listing_id);

    // Against a running Rollcall, as text.
    const base = await server.listen();
    const remoteCard = doc(await rollcall(['list', there.cardUrl, '--server', base, '--json']));
    assert.equal(remoteCard.kind, 'agent');
    const text = await rollcall(['list', there.baseUrl, '--server', base]);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, new RegExp(`^already listed ${remoteCard.listing_id} via ${base} \\(${there.baseUrl}/ reaches the same agent\\)$`, 'm'));
    assert.match(text.out, /^ {2}kind {5}agent$/m);
    assert.match(text.out, new RegExp(`^ {2}probe {4}ok, handshake ok, score ${remoteCard.probe.score}$`, 'm'));
    // The duplicate row says what its probe found, for whoever checks it.
    const dupRow = await server.sql.selectFrom('listings').select('id').where('url', '=', `${there.baseUrl}/`).executeTakeFirstOrThrow();
    const dup = await fetch(`${base}/api/listings/status?id=${dupRow.id}`).then((r) => r.json());
    assert.deepEqual([dup.kind, dup.lane, dup.lane_reason], ['agent', 'failed', 'duplicate_of']);
  } finally {
    await server.close();
    await Promise.all([here.close(), there.close()]);
  }
});
