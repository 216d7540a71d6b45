// The command line: `serve` (default), `migrate`. Configuration comes from the environment.
import { loadConfig, ConfigError } from './config.ts';
import { buildApp } from './app.ts';
import { openDb } from './platform/db/dialect.ts';
import { migrateToLatest } from './platform/db/migrations.ts';

const USAGE = `usage: rollcall <command>
  serve     start the HTTP service (default)
  migrate   bring the database schema up to date and exit`;

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

async function main(argv: string[]) {
  const [command = 'serve'] = argv;
  if (command === 'serve') return serve();
  if (command === 'migrate') return migrate();
  console.error(command === 'help' || command === '--help' ? USAGE : `unknown command: ${command}\n${USAGE}`);
  process.exit(command === 'help' || command === '--help' ? 0 : 2);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
