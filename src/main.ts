// The command line: `serve` (default), `migrate`. Configuration comes from the environment.
import { loadConfig, ConfigError } from './config.ts';
import { buildApp } from './app.ts';
import { openDb } from './platform/db/dialect.ts';
import { migrateToLatest } from './platform/db/migrations.ts';
import { createProber } from './probe/factory.ts';
import { formatReport } from './probe/format.ts';
import { guessKind, normalizeListingUrl } from './listings/url.ts';

const USAGE = `usage: rollcall <command>
  serve        start the HTTP service (default)
  migrate      bring the database schema up to date and exit
  probe <url>  probe a card or MCP URL now and print its checks and score (exit 0 when it could go Live)`;

async function serve() {
  const config = loadConfig();
  const { http } = await buildApp({ config });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    http.log.info({ signal }, 'shutting down');
    // Stops accepting connections, lets requests in flight finish, then closes probes and the database.
    const timer = setTimeout(() => {
      http.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await http.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  const address = await http.listen({ port: config.port, host: config.host });
  http.log.info({ address, public: config.publicBaseUrl, database: config.databaseUrl ? 'postgres' : 'sqlite' }, 'Rollcall is listening');
}

async function migrate() {
  const config = loadConfig();
  const db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
  } finally {
    await db.close();
  }
}

async function probe(url: string | undefined) {
  if (!url) {
    console.error(`probe needs a URL\n${USAGE}`);
    process.exit(2);
  }
  const config = loadConfig();
  let normalized: string;
  try {
    normalized = normalizeListingUrl(url);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const prober = createProber(config);
  try {
    const report = await prober.probe(normalized, { hint: guessKind(normalized, false) });
    console.log(formatReport(normalized, report));
    process.exitCode = report.live ? 0 : 1;
  } finally {
    await prober.close();
  }
}

async function main(argv: string[]) {
  const [command = 'serve', ...rest] = argv;
  if (command === 'serve') return serve();
  if (command === 'migrate') return migrate();
  if (command === 'probe') return probe(rest[0]);
  console.error(command === 'help' || command === '--help' ? USAGE : `unknown command: ${command}\n${USAGE}`);
  process.exit(command === 'help' || command === '--help' ? 0 : 2);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
