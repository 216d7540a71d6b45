// SQLite's write-ahead log is copied back into the database file by checkpoints. Left automatic, a
// checkpoint runs inside whichever COMMIT pushes the log past 1,000 pages: on the event loop, with
// the fsyncs of synchronous=NORMAL. Measured in a publish-to-Live run: 60% of all COMMIT time went
// to those few commits (p99 4.3 ms, max 12 ms, median 26 us). Here a worker thread with its own
// connection runs PASSIVE checkpoints (which never wait for the writer nor block it) every
// CHECKPOINT_EVERY_MS, so the event loop never does the copying or waits on the disk. The main
// connection keeps a far higher automatic threshold as a safety net should the worker fall behind
// or fail.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/** How often the worker checkpoints (the log then holds at most this long's writes). */
export const CHECKPOINT_EVERY_MS = 250;
/** Pages after which the main connection checkpoints itself (the worker normally keeps it far below). */
export const SAFETY_NET_PAGES = 20_000;
/** SQLite's own default, restored when the worker cannot run. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** PRAGMA wal_checkpoint's answer: busy (1 when it could not finish), pages in the log, pages copied. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

// CommonJS run by the worker (eval): its own connection to the same file, one checkpoint per message.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ result: db.pragma('wal_checkpoint(PASSIVE)')[0] });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
});
`;

export interface Checkpointer {
  /** Runs one checkpoint now (tests; a timer runs them otherwise). */
  checkpointNow(): Promise<CheckpointResult>;
  /** Stops the timer and the worker; the main connection may then close (and checkpoint last). */
  close(): Promise<void>;
}

/**
 * Starts checkpointing `file` (the path main opened, in WAL mode) off the event loop. The worker
 * starts with the first checkpoint, so a database open for less than `everyMs` (a CLI command, a
 * short test) never starts one.
 */
export function startCheckpointer(main: BetterSqlite3.Database, file: string, everyMs = CHECKPOINT_EVERY_MS): Checkpointer {
  main.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  let worker: Worker | undefined;
  let failed = false;
  let closed = false;
  // One checkpoint in flight at a time; each waiter gets the answer to its own request, in order.
  const waiting: { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }[] = [];

  const giveUp = (err: Error) => {
    // Without the worker the main connection checkpoints itself again, as SQLite does by default.
    failed = true;
    if (main.open) main.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    for (const w of waiting.splice(0)) w.reject(err);
  };

  const spawn = () => {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), file } });
    w.unref();
    w.on('message', (m: { result?: CheckpointResult; error?: string }) => {
      const next = waiting.shift();
      // Idle again: no longer keeps the process alive (while closing it must, until it has exited).
      if (waiting.length === 0 && !closed) w.unref();
      if (m.result) next?.resolve(m.result);
      else next?.reject(new Error(`checkpoint failed: ${m.error}`));
    });
    w.on('error', giveUp);
    w.on('exit', () => {
      if (!closed) giveUp(new Error('the checkpoint worker stopped'));
    });
    return w;
  };

  const checkpointNow = (): Promise<CheckpointResult> => {
    if (failed || closed) return Promise.reject(new Error('the checkpointer is not running'));
    worker ??= spawn();
    return new Promise((resolve, reject) => {
      waiting.push({ resolve, reject });
      // Held while an answer is awaited (a process never exits under a pending checkpoint), not otherwise.
      worker!.ref();
      worker!.postMessage('checkpoint');
    });
  };

  const timer = setInterval(() => {
    if (waiting.length === 0 && !failed) checkpointNow().catch(() => undefined);
  }, everyMs);
  timer.unref();

  return {
    checkpointNow,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      if (!worker || failed) return;
      const exited = new Promise<void>((resolve) => worker!.once('exit', () => resolve()));
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
