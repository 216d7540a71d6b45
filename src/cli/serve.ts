// `rollcall serve`: builds the app, listens, and on SIGTERM or Ctrl-C stops taking connections,
// lets requests in flight finish, closes probes and the database, then resolves with exit 0.
import { loadConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import { EXIT, Failure, UsageError, type Runner } from './command.ts';
import type { MetricsListener } from '../platform/metrics-listener.ts';
import type { Config } from '../config.ts';

/** A shutdown that has not finished by then exits 1 anyway. */
const SHUTDOWN_LIMIT_MS = 10_000;

/**
 * Metrics on their own listener (port 0 turns it off). The default port taken (a second instance on
 * one machine) costs only the metrics, with a warning; a port the operator chose and cannot have
 * stops the start, naming it, since a scraper is waiting there.
 */
async function listenForMetrics(metrics: MetricsListener, config: Config, warn: (message: string) => void): Promise<string> {
  if (config.metricsPort === 0) return 'off';
  const where = `${config.metricsHost}:${config.metricsPort}`;
  try {
    return await metrics.listen(config.metricsHost, config.metricsPort);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE') throw err;
    if (config.metricsPortChosen) throw new Failure(`METRICS_PORT: ${where} is already in use; choose a free port, or 0 to serve without /metrics`, 'metrics_port_taken');
    warn(`/metrics is off: the default ${where} is already in use (another instance?); set METRICS_PORT to serve it elsewhere`);
    return 'off (default port taken)';
  }
}

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
  const metricsAt = await listenForMetrics(metrics, config, (message) => http.log.warn(message));
  http.log.info({ address, public: config.publicBaseUrl, database: config.databaseUrl ? 'postgres' : 'sqlite', metrics: metricsAt }, 'Rollcall is listening');
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
