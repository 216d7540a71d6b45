// `rollcall migrate`: applies the migrations the configured database lacks, then exits.
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';
import { EXIT, emit, type Runner } from './command.ts';

export const run: Runner = async (inv) => {
  const { db, applied } = await openDatabase(loadConfig(inv.io.env));
  await db.close();
  emit(inv, { ok: true, applied, engine: db.engine }, () => (applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date'));
  return EXIT.ok;
};
