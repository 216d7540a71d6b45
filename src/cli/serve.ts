// `rollcall serve`: builds the app, listens, and on SIGTERM or Ctrl-C stops taking connections,
// lets requests in flight finish, closes probes and the database, then resolves with exit 0.
import { loadConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import { EXIT, UsageError, type Runner } from './command.ts';

/** A shutdown that has not finished by then exits 1 anyway. */
const SHUTDOWN_LIMIT_MS = 10_000;

export const run: Runner = async (inv) => {
  const { port, host } = inv.values;
  if (port !== undefined && !/^\d{1,5}$/.test(String(port))) throw new UsageError('--port must be a port number');
  const config = loadConfig({ ...inv.io.env, ...(port !== undefined ? { PORT: String(port) } : {}), ...(host !== undefined ? { HOST: String(host) } : {}) });
  const { http, metrics } = await buildApp({ config });
  const stopped = new Promise<string>((resolve) => {
    process.on('SIGTERM', () => resolve('SIGTERM'));
    process.on('SIGINT', () => resolve('SIGINT'));
  });
  const address = await http.listen({ port: config.port, host: config.host });
  // Metrics on their own listener (0 turns it off); a port already taken stops the start, loudly.
  const metricsAt = config.metricsPort === 0 ? undefined : await metrics.listen(config.metricsHost, config.metricsPort);
  http.log.info({ address, public: config.publicBaseUrl, database: config.databaseUrl ? 'postgres' : 'sqlite', metrics: metricsAt ?? 'off' }, 'Rollcall is listening');
  const signal = await stopped; // a second signal meanwhile changes nothing
  http.log.info({ signal }, 'shutting down');
  // Not unref'd: it also keeps the process alive while the shutdown waits on handles that do not
  // (an idle worker thread is unref'd). Were the event loop left empty before the close resolved,
  // Node would end the process with exit code 13 (a top-level await never settled), not 0.
  const timer = setTimeout(() => {
    http.log.error('shutdown took too long; exiting');
    process.exit(EXIT.failed);
  }, SHUTDOWN_LIMIT_MS);
  try {
    await http.close();
  } finally {
    clearTimeout(timer);
  }
  return EXIT.ok;
};
