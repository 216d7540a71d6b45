// Progress of a long command, on stderr. On a terminal, a bar redrawn in place (cli-progress).
// Anywhere else (a pipe, a log file, CI) every redraw would be a line of its own, so there is no
// bar: a plain line at most every PLAIN_EVERY_MS while the work goes on, and none at the end (the
// command's summary says how it ended). A short run prints no progress line at all.
import { SingleBar } from 'cli-progress';
import type { Io } from './command.ts';

/** How often a plain progress line may be written when stderr is not a terminal. */
const PLAIN_EVERY_MS = 10_000;

export type ProgressFields = Record<string, string | number>;

export interface ProgressLook {
  /** The bar's cli-progress format: {bar}, {value}, {total} and the fields' own tokens. */
  bar: string;
  /** The plain line for a log. */
  plain: (done: number, total: number, fields: ProgressFields) => string;
}

export interface Progress {
  /** `done` of `total` (a total may grow as the work learns more), with the fields' current values. */
  update(done: number, total: number, fields: ProgressFields): void;
  /** Ends the bar (on a terminal, its last state stays on screen). Safe to call twice. */
  stop(): void;
}

export function startProgress(err: Io['err'], look: ProgressLook, total: number, fields: ProgressFields): Progress {
  if (err.isTTY) {
    const bar = new SingleBar({ format: look.bar, stream: err, hideCursor: null });
    bar.start(total, 0, fields);
    let stopped = false;
    return {
      update(done, newTotal, newFields) {
        bar.setTotal(newTotal);
        bar.update(done, newFields);
      },
      stop() {
        if (!stopped) bar.stop();
        stopped = true;
      },
    };
  }
  let last = Date.now();
  return {
    update(done, newTotal, newFields) {
      const now = Date.now();
      if (now - last < PLAIN_EVERY_MS) return;
      last = now;
      err.write(`${look.plain(done, newTotal, newFields)}\n`);
    },
    stop() {},
  };
}
