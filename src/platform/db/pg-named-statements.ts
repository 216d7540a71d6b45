// Kysely sends every PostgreSQL statement unnamed, so the server parses and plans it again each
// time. A named statement is parsed once per connection (node-postgres remembers which names each
// connection has prepared). Measured in the publish-to-Live bench: PostgreSQL's CPU fell from
// 0.40 to 0.30 cores, and the service's ratio to bare probing rose (docs/performance.md).
import type pg from 'pg';

/** Most SQL texts named; later ones go unnamed, so no connection holds more prepared statements. */
const MAX_NAMED = 500;
/** Only statements that run again and again are named (schema changes run once, at migration). */
const REUSED = /^(select|insert|update|delete|with)\b/i;
/** A text that may not be named again (see `stalePlan`). */
const NEVER = '';
/** Names by SQL text, shared by every connection of the process: one text, one name. */
const names = new Map<string, string>();

function nameFor(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined) return known || undefined;
  if (names.size >= MAX_NAMED || !REUSED.test(text)) return undefined;
  const name = `rc_${names.size}`;
  names.set(text, name);
  return name;
}

/**
 * A migration (by another instance, during a rolling deploy) changed the columns a prepared
 * `select *` or `returning *` gives: PostgreSQL refuses to run the old plan. The text is never
 * named again, so this happens at most once per text and connection.
 */
const stalePlan = (err: unknown) => (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message));

type Query = (config: unknown, values?: unknown) => Promise<pg.QueryResult>;

/** Makes a pool's new connection send Kysely's statements named (the pool's `connect` event). */
export function nameStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as unknown as Query;
  let inTransaction = false;
  const send: Query = async (config, values) => {
    if (typeof config !== 'string' || !Array.isArray(values)) return query(config, values);
    if (/^(begin|start transaction)\b/i.test(config)) inTransaction = true; // Kysely's two ways to open one
    else if (/^(commit|rollback)$/i.test(config)) inTransaction = false;
    const name = nameFor(config);
    if (!name) return query(config, values);
    try {
      return await query({ text: config, values, name });
    } catch (err) {
      if (!stalePlan(err)) throw err;
      names.set(config, NEVER);
      // Outside a transaction the statement simply runs again, unnamed; inside one the transaction
      // has failed already, and its caller sees the error once.
      if (inTransaction) throw err;
      return query(config, values);
    }
  };
  client.query = send as unknown as typeof client.query;
}
