// Probes off the service's event loop. A probe is a chain of network steps (card, initialize,
// tools/list...), and each step's callback waits for the event loop that runs it. On the service's
// loop, which also answers publishes and searches, those waits added up: in the publish-to-Live
// bench a probe took 191 ms in the service against 124 ms run bare, with the same 32 slots, so the
// slots turned over that much slower. Here a worker thread with its own prober runs the probes;
// the service keeps the jobs, the leases and every write. If the thread cannot run (or dies), the
// probes run on the event loop as before: slower, never lost.
import { Worker } from 'node:worker_threads';
import { Prober, type Liveness, type ProbeOptions, type ProbeReport } from './prober.ts';
import type { GuardedClient } from '../platform/net/guarded-client.ts';
import type { SigningIdentity } from '../platform/net/web-bot-auth.ts';
import type { FromThread, ThreadSetup, ToThread } from './thread-messages.ts';
import { bundled } from '../platform/bundled.ts';
import type { RemoteToCheck } from './remote-check.ts';
import type { CheckFindings } from '../catalog/checks-store.ts';

/** What the thread runs: a probe, check_liveness's handshake (both count against its per-host cap), or a catalog check. */
type Work = Extract<ToThread, { type: 'probe' | 'liveness' | 'check' }>;

interface Pending {
  options: ProbeOptions;
  /** The same work on the event loop, for when the thread is lost. */
  here: () => Promise<unknown>;
  /** Settles when the work does, whichever way (close() waits for it). */
  settled: Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  detach: () => void;
}

// From src/, the thread's code is TypeScript: it registers tsx's loader for itself, whichever way
// the service was started (`node --import tsx` or the `rollcall` command). The build in dist/
// loads its compiled entry directly.
const threadSource = (tsxApi: string, entry: string) =>
  `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;

export class OffThreadProber extends Prober {
  private worker: Worker | undefined;
  private broken = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** Settles when the thread can probe, or is lost. */
  private started: Promise<void> = Promise.resolve();
  private markStarted: () => void = () => {};
  /** The signing key last given, sent again to a thread started after it. */
  private signing: SigningIdentity | undefined;

  constructor(
    client: GuardedClient,
    allowPrivate: boolean,
    private readonly setup: ThreadSetup,
    /** Told once if the thread cannot start or dies (the probes then run on the event loop). */
    private readonly onLost: (err: Error) => void = () => {},
  ) {
    super(client, allowPrivate);
  }

  /** Whether probes go to the thread (false once it is lost or closed). */
  usesThread(): boolean {
    return !this.broken;
  }

  /** The thread signs with it too (the key crosses in a message, never through the environment). */
  override useSigningIdentity(identity: SigningIdentity | undefined): void {
    super.useSigningIdentity(identity);
    this.signing = identity;
    this.send({ type: 'sign', identity });
  }

  private send(message: ToThread): void {
    this.worker?.postMessage(message);
  }

  private thread(): Worker | undefined {
    if (this.broken) return undefined;
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      const source = bundled
        ? `import(${JSON.stringify(new URL('./probe/probe-thread.mjs', import.meta.url).href)});`
        : threadSource(import.meta.resolve('tsx/esm/api'), new URL('./probe-thread.ts', import.meta.url).href);
      worker = new Worker(source, { eval: true, execArgv: [], workerData: this.setup });
    } catch (err) {
      this.broken = true;
      this.onLost(err as Error);
      return undefined;
    }
    this.started = new Promise((resolve) => {
      this.markStarted = resolve;
    });
    worker.unref();
    worker.on('message', (m: FromThread) => this.received(m));
    if (this.signing) worker.postMessage({ type: 'sign', identity: this.signing } satisfies ToThread);
    worker.on('error', (err) => this.lose(worker, err));
    worker.on('exit', (code) => this.lose(worker, new Error(`the probe thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private received(m: FromThread): void {
    if (m.type === 'ready') {
      this.markStarted();
      return;
    }
    // Counted whether or not the work is still awaited here: they were made all the same.
    if (m.type !== 'ask' && m.type !== 'admit') for (let i = 0; i < m.fetches; i++) this.onFetch?.();
    const p = this.pending.get(m.id);
    if (m.type === 'admit') {
      // The thread asks only for work given an admit hook: without one, the work is gone.
      const admit = p?.options.admit;
      void (admit ? admit(m.host) : Promise.reject(new Error('the probe was cut short'))).then(
        () => this.send({ type: 'admitted', question: m.question }),
        (err: Error) => this.send({ type: 'admitted', question: m.question, refused: err.message }),
      );
      return;
    }
    if (!p) return;
    if (m.type === 'ask') {
      const ask = p.options.takenByOther;
      // A question the service cannot answer (its database is down) fails the probe: "not taken"
      // would let a duplicate go Live while nobody could check.
      void (ask ? ask(m.url) : Promise.resolve(undefined)).then(
        (owner) => this.send({ type: 'answer', question: m.question, owner }),
        (err: Error) => this.send({ type: 'answer', question: m.question, owner: undefined, failed: err.message }),
      );
      return;
    }
    this.settle(m.id);
    if (m.type === 'failed') {
      p.reject(new Error(m.message));
      return;
    }
    if (m.type === 'alive') {
      p.resolve(m.result);
      return;
    }
    if (m.type === 'checked') {
      p.resolve(m.findings ?? undefined);
      return;
    }
    for (const [phase, ms] of m.phases) p.options.onPhase?.(phase, ms);
    p.resolve(m.report);
  }

  private settle(id: number): void {
    this.pending.get(id)?.detach();
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
  }

  /** The thread is gone: what it was running runs here instead, and so does everything after. */
  private lose(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (!this.broken) this.onLost(err);
    this.broken = true;
    this.markStarted();
    for (const [id, p] of [...this.pending]) {
      this.settle(id);
      p.here().then(p.resolve, p.reject);
    }
  }

  /** Starts the thread and waits until it can probe (a service starts it before its first probe is due). */
  override async prepare(): Promise<void> {
    const worker = this.thread();
    if (!worker) return;
    worker.ref();
    await this.started;
    if (this.pending.size === 0) worker.unref();
  }

  override probe(url: string, options: ProbeOptions = {}): Promise<ProbeReport> {
    return this.onThread((id) => ({ type: 'probe', id, url, hint: options.hint, ask: Boolean(options.takenByOther), admit: Boolean(options.admit) }), options, () => super.probe(url, options));
  }

  /** check_liveness's handshake goes to the thread too: one host's requests share one cap there. */
  override liveness(url: string, kind: 'agent' | 'mcp', options: Pick<ProbeOptions, 'signal' | 'admit'> = {}): Promise<Liveness> {
    return this.onThread((id) => ({ type: 'liveness', id, url, kind, admit: Boolean(options.admit) }), options, () => super.liveness(url, kind, options));
  }

  /** A catalog check goes to the thread (the check thread: the service gives this prober nothing else). */
  override check(row: RemoteToCheck, options: Pick<ProbeOptions, 'admit'> = {}): Promise<CheckFindings | undefined> {
    return this.onThread((id) => ({ type: 'check', id, url: row.url, transport: row.transport }), options, () => super.check(row, options));
  }

  /** Sends work to the thread (or runs it `here` when there is none); the caller's signal aborts it there. */
  private onThread<T>(work: (id: number) => Work, options: ProbeOptions, here: () => Promise<T>): Promise<T> {
    const worker = this.thread();
    if (!worker) return here();
    const id = this.nextId++;
    const signal = options.signal;
    const onAbort = () => this.send({ type: 'abort', id });
    let settle: Pick<Pending, 'resolve' | 'reject'> | undefined;
    const settled = new Promise<T>((resolve, reject) => {
      settle = { resolve: resolve as (value: unknown) => void, reject };
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    this.pending.set(id, { options, here, settled: settled.catch(() => undefined), ...settle!, detach: () => signal?.removeEventListener('abort', onAbort) });
    worker.ref();
    this.send(work(id));
    if (signal?.aborted) onAbort();
    return settled;
  }

  /** Lets the work in flight finish on the thread (as the loop's close lets its requests finish), then ends it. */
  override async close(): Promise<void> {
    this.broken = true;
    await Promise.all([...this.pending.values()].map((p) => p.settled));
    await this.worker?.terminate();
    await super.close();
  }

  /** Shutdown: probes in flight are cut (their callers hand the jobs back), then the thread ends. */
  override async abort(): Promise<void> {
    for (const id of this.pending.keys()) this.send({ type: 'abort', id });
    this.broken = true;
    await this.worker?.terminate();
    await super.abort();
  }
}
