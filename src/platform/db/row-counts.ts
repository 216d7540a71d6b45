// How many rows each table of this database holds (get_platform_cost's storage). Read from the
// engine's own catalog of tables, so platform names no domain's table; exact counts, because
// PostgreSQL's statistics lag behind fresh writes. A reporting read, never on a hot path.
import { sql } from 'kysely';
import type { Db } from './dialect.ts';

export async function tableRowCounts(db: Db): Promise<{ table: string; rows: number }[]> {
  const names =
    db.engine === 'postgres'
      ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db.kysely)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db.kysely)).rows;
  const out: { table: string; rows: number }[] = [];
  for (const { name } of names) {
    const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(db.kysely);
    out.push({ table: name, rows: Number(r.rows[0]?.n ?? 0) });
  }
  return out.sort((a, b) => b.rows - a.rows || a.table.localeCompare(b.table));
}
