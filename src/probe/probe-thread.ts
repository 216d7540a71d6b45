// The probe thread (see off-thread.ts): a worker that runs probes (and check_liveness's handshakes)
// with its own prober, so each probe's network steps wait on this thread's quiet event loop, not on
// the service's busy one, and every request to one host counts against one PROBE_PER_HOST cap.
// The check thread is the same code with the catalog checks' prober (setup.role), given only checks.
// It writes nothing and knows no database: the questions work asks the service (does another
// listing own this URL? has this host's budget room?) are sent back to the main thread.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { OutboundError, tableResolver } from '../platform/net/guarded-client.ts';
import { createChecker, createProber } from './factory.ts';
import type { ProbePhase } from './prober.ts';
import type { FromThread, ThreadSetup, ToThread } from './thread-messages.ts';

const port = parentPort!;
const setup = workerData as ThreadSetup;
// Catalog checks are background work: the check thread takes the lowest CPU priority, so the
// service's requests and its listing probes come first. Only on Linux, where a thread's nice value
// is its own (elsewhere it would lower the whole service).
if (setup.role === 'check' && process.platform === 'linux') os.setPriority(19);
const seams = setup.hosts ? { resolver: tableResolver(setup.hosts) } : {};
const prober = setup.role === 'check' ? createChecker(setup.config, seams) : createProber(setup.config, seams);
let fetches = 0;
prober.observeFetches(() => {
  fetches += 1;
});
/**
 * The fetches not yet told to the service. Each message carries those made since the last one,
 * whichever work made them: a probe cannot count its own among its neighbours', and a count taken
 * from its start would include theirs (ten probes at once were counted as 646 fetches for 70).
 */
let told = 0;
const untold = () => {
  const n = fetches - told;
  told = fetches;
  return n;
};

const running = new Map<number, AbortController>();
const asked = new Map<number, (owner: string | undefined, failed?: string) => void>();
const admissions = new Map<number, (refused: string | undefined) => void>();
let nextQuestion = 0;

/** Each request asks the service whether its host's budget has room (the budget's count is the service's). */
const admitFor = (id: number) => (host: string) =>
  new Promise<void>((resolve, reject) => {
    const question = nextQuestion++;
    admissions.set(question, (refused) => (refused === undefined ? resolve() : reject(new OutboundError('host_budget', refused))));
    send({ type: 'admit', id, question, host });
  });
const send = (message: FromThread) => port.postMessage(message);

/** Runs one piece of work that the service can abort by its id; a throw goes back as `failed`. */
async function run(id: number, work: (signal: AbortSignal) => Promise<FromThread>): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    send(await work(controller.signal));
  } catch (err) {
    send({ type: 'failed', id, message: String((err as Error)?.message ?? err), fetches: untold() });
  } finally {
    running.delete(id);
  }
}

function probe(id: number, url: string, hint: 'agent' | 'mcp' | undefined, ask: boolean, admit: boolean): Promise<void> {
  const takenByOther = ask
    ? (other: string) =>
        new Promise<string | undefined>((resolve, reject) => {
          const question = nextQuestion++;
          // The service could not answer (its database): the probe fails as Rollcall's trouble, not the listing's.
          asked.set(question, (owner, failed) => (failed === undefined ? resolve(owner) : reject(new Error(`the service could not check for duplicates: ${failed}`))));
          send({ type: 'ask', id, question, url: other });
        })
    : undefined;
  return run(id, async (signal) => {
    const phases: [ProbePhase, number][] = [];
    const report = await prober.probe(url, { hint, takenByOther, signal, onPhase: (phase, ms) => phases.push([phase, ms]), ...(admit ? { admit: admitFor(id) } : {}) });
    return { type: 'done', id, report, phases, fetches: untold() };
  });
}

/** check_liveness's handshake, here so that it shares this client's cap per host with the probes. */
function liveness(id: number, url: string, kind: 'agent' | 'mcp', admit: boolean): Promise<void> {
  return run(id, async (signal) => ({ type: 'alive', id, result: await prober.liveness(url, kind, { signal, ...(admit ? { admit: admitFor(id) } : {}) }), fetches: untold() }));
}

/** A catalog remote's check: always public work under its host's budget, asked of the service. */
function check(id: number, url: string, transport: string): Promise<void> {
  return run(id, async () => ({ type: 'checked', id, findings: (await prober.check({ url, transport }, { admit: admitFor(id) })) ?? null, fetches: untold() }));
}

port.on('message', (m: ToThread) => {
  if (m.type === 'probe') void probe(m.id, m.url, m.hint, m.ask, m.admit);
  else if (m.type === 'liveness') void liveness(m.id, m.url, m.kind, m.admit);
  else if (m.type === 'check') void check(m.id, m.url, m.transport);
  else if (m.type === 'abort') running.get(m.id)?.abort();
  else if (m.type === 'sign') prober.useSigningIdentity(m.identity);
  else if (m.type === 'answer') {
    asked.get(m.question)?.(m.owner, m.failed);
    asked.delete(m.question);
  } else if (m.type === 'admitted') {
    admissions.get(m.question)?.(m.refused);
    admissions.delete(m.question);
  }
});
send({ type: 'ready' });
