// `rollcall keys rotate` (also `rotate-key`) and `rollcall keys list`: the deployment's signing keys.
import { loadConfig } from '../config.ts';
import { KEY_OVERLAP_MS, describeSigningKeys, rotateSigningKey } from '../identity/store.ts';
import { DAY_MS, systemClock } from '../platform/clock.ts';
import { openDatabase } from './database.ts';
import { EXIT, UsageError, emit, type Runner } from './command.ts';

export const run: Runner = async (inv) => {
  const sub = inv.positionals[0];
  if (sub !== 'rotate' && sub !== 'list') throw new UsageError(`unknown keys command: ${sub} (keys rotate, or keys list)`);
  const { db } = await openDatabase(loadConfig(inv.io.env));
  try {
    const now = systemClock.now();
    if (sub === 'rotate') {
      const rotation = await rotateSigningKey(db.kysely, now);
      emit(inv, { ok: true, ...rotation }, () =>
        [
          `new signing key ${rotation.kid}: in the JWKS now, signing from ${rotation.active_from}`,
          ...rotation.retiring.map((old) => `previous key ${old.kid}: stays published until ${old.retire_at} (${KEY_OVERLAP_MS / DAY_MS} days of overlap)`),
        ].join('\n'),
      );
      return EXIT.ok;
    }
    const keys = await describeSigningKeys(db.kysely, now);
    emit(inv, { ok: true, keys }, () =>
      keys.length
        ? keys.map((k) => `${k.signing ? '* ' : '  '}${k.kid}  generation ${k.generation}, active from ${k.active_from}${k.retire_at ? `, retires ${k.retire_at}` : ''}${k.signing ? ' (signing now)' : ''}`).join('\n')
        : 'no signing key yet: the first server start (or keys rotate) makes one',
    );
    return EXIT.ok;
  } finally {
    await db.close();
  }
};
