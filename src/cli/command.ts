// What every command of the `rollcall` CLI shares: its description (name, help, options), the
// parsed invocation it runs with, exit codes, and output: human text, or with --json exactly one
// JSON document on stdout (errors too). Progress and logs go to stderr.
import type { Writable } from 'node:stream';
import type { ParseArgsConfig } from 'node:util';

/** Exit codes (docs/guide/cli.md). */
export const EXIT = {
  ok: 0,
  /** The thing failed: a probe that could not go Live, a listing that did not, an unreachable server. */
  failed: 1,
  /** The command line is wrong: unknown command or option, a missing or malformed argument. */
  usage: 2,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM before it finished. */
  interrupted: 130,
} as const;

export interface Io {
  out: Writable;
  err: Writable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Invocation {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  json: boolean;
  io: Io;
}

export type Runner = (inv: Invocation) => Promise<number>;

export interface Command {
  name: string;
  /** One line for `rollcall --help`. */
  summary: string;
  /** `rollcall <name> --help`: usage line first, then what it does, options and exit codes. */
  help: string;
  /** Options beyond --help and --json. */
  options: Options;
  positionals: { min: number; max: number };
  /** Loaded only when the command runs, so `--help` starts fast. */
  load: () => Promise<Runner>;
}

/** A mistake on the command line (exit 2). */
export class UsageError extends Error {}

/** The command ran and the thing failed (exit 1), with a stable code for --json. */
export class Failure extends Error {
  constructor(
    message: string,
    readonly code = 'failed',
  ) {
    super(message);
  }
}

/** Writes the command's answer: `doc` as one JSON document with --json, else the human text. */
export function emit(inv: Invocation, doc: unknown, human: () => string): void {
  inv.io.out.write(inv.json ? `${JSON.stringify(doc)}\n` : `${human()}\n`);
}

/**
 * Ends a command that fails with an exit code of its own (130 interrupted, or a code its help
 * names): the reason on stderr as run.ts writes it, and with --json the error document on stdout.
 * Other failures are thrown (Failure, UsageError) for run.ts to report.
 */
export function failWith(inv: Pick<Invocation, 'io' | 'json'>, command: string, error: { code: string; message: string }, exit: number): number {
  inv.io.err.write(`rollcall ${command}: ${error.message}\n`);
  if (inv.json) inv.io.out.write(`${JSON.stringify({ ok: false, error })}\n`);
  return exit;
}

/** A positive whole number option (seconds, a limit), or a usage error naming the option. */
export function wholeNumber(inv: Invocation, name: string, fallback: number): number {
  const raw = inv.values[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--${name} must be a whole number of at least 1`);
  return Number(raw);
}

/** Runs `work` with an AbortSignal that fires on Ctrl-C or SIGTERM; says whether it fired. */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<{ value: T; interrupted: boolean }> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const value = await work(stop.signal);
    return { value, interrupted: stop.signal.aborted };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
