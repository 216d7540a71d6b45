// Runs one command line: picks the command, answers --help, parses the options (node:util
// parseArgs, strict), runs it and turns every failure into a message and an exit code.
import { parseArgs } from 'node:util';
import { ConfigError, VERSION } from '../config.ts';
import { AppError } from '../platform/errors.ts';
import { ALIASES, COMMANDS, TOP_HELP } from './commands.ts';
import { EXIT, Failure, UsageError, type Command, type Invocation, type Io } from './command.ts';

/** Errors of an operation that mean the operator's input was wrong, not that the work failed. */
const INPUT_CODES = new Set(['invalid_input', 'invalid_url', 'invalid_query', 'body_required']);

/** The part of the line before `--`: where --help and --json count. */
const flagsOf = (args: string[]) => (args.includes('--') ? args.slice(0, args.indexOf('--')) : args);

export async function runCli(argv: string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) return runCommand(find('serve')!, [], io);
  if (first === '--help' || first === '-h' || first === 'help') {
    const about = rest[0] !== undefined ? find(rest[0]) : undefined;
    io.out.write(`${about ? about.help : TOP_HELP}\n`);
    return EXIT.ok;
  }
  if (first === '--version' || first === '-v') {
    io.out.write(`rollcall ${VERSION}\n`);
    return EXIT.ok;
  }
  const alias = ALIASES[first];
  const command = find(alias ? alias[0]! : first);
  if (!command) {
    io.err.write(`rollcall: unknown command: ${first}\n\n${TOP_HELP}\n`);
    if (flagsOf(rest).includes('--json')) io.out.write(`${JSON.stringify({ ok: false, error: { code: 'usage', message: `unknown command: ${first}` } })}\n`);
    return EXIT.usage;
  }
  return runCommand(command, alias ? [...alias.slice(1), ...rest] : rest, io);
}

const find = (name: string): Command | undefined => COMMANDS.find((c) => c.name === name);

async function runCommand(command: Command, args: string[], io: Io): Promise<number> {
  const flags = flagsOf(args);
  if (flags.includes('--help') || flags.includes('-h')) {
    io.out.write(`${command.help}\n`);
    return EXIT.ok;
  }
  const json = flags.includes('--json');
  const fail = (code: number, error: { code: string; message: string; field?: string }) => {
    io.err.write(`rollcall ${command.name}: ${error.message}\n`);
    if (code === EXIT.usage) io.err.write(`run \`rollcall ${command.name} --help\` for its usage\n`);
    if (json) io.out.write(`${JSON.stringify({ ok: false, error })}\n`);
    return code;
  };
  try {
    const { values, positionals } = parse(command, args);
    const inv: Invocation = { values, positionals, json, io };
    const run = await command.load();
    return await run(inv);
  } catch (err) {
    if (err instanceof UsageError) return fail(EXIT.usage, { code: 'usage', message: err.message });
    if (err instanceof ConfigError) return fail(EXIT.failed, { code: 'configuration', message: err.message });
    if (err instanceof AppError) {
      const body = err.toBody();
      return fail(err.status === 400 && INPUT_CODES.has(err.code) ? EXIT.usage : EXIT.failed, { code: body.code, message: body.message, ...(body.field ? { field: body.field } : {}) });
    }
    if (err instanceof Failure) return fail(EXIT.failed, { code: err.code, message: err.message });
    return fail(EXIT.failed, { code: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
}

function parse(command: Command, args: string[]) {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    // parseArgs names the option in its message ("Unknown option '--x'", "Option '--limit <value>' argument missing").
    throw new UsageError((err as Error).message.split('. ')[0]!);
  }
  const { min, max } = command.positionals;
  const n = parsed.positionals.length;
  if (n < min) throw new UsageError(`missing argument (usage: ${command.help.split('\n')[0]!.replace(/^usage: /, '')})`);
  if (n > max) throw new UsageError(`unexpected argument: ${parsed.positionals[max]}`);
  return { values: parsed.values as Invocation['values'], positionals: parsed.positionals };
}
