// Probes signed with the service's current key (Web Bot Auth, docs/decisions/web-bot-auth.md): the
// assembly calls this once at start; it hands the key to each prober and looks again every
// PROBE_KEY_CHECK_MS, so after `rollcall keys rotate` (on any instance) probes sign with the new key
// once it is the one that signs, while the old one is still published. PROBE_SIGNATURES=0: unsigned.
import type { Config } from '../config.ts';
import type { Prober } from '../probe/prober.ts';
import type { IdentityRuntime } from './runtime.ts';

export const PROBE_KEY_CHECK_MS = 60_000;

/** Starts signing; the returned function stops looking for a new key (at shutdown). */
export async function signProbes(config: Pick<Config, 'probeSignatures'>, identity: IdentityRuntime, probers: Prober[]): Promise<() => void> {
  if (!config.probeSignatures) return () => {};
  let kid: string | undefined;
  const refresh = async () => {
    const current = await identity.requestSigningIdentity();
    if (current.kid === kid) return;
    kid = current.kid;
    for (const p of probers) p.useSigningIdentity(current);
  };
  await refresh();
  // A failed look (the database is down) keeps the key in use; the next look tries again.
  const timer = setInterval(() => void refresh().catch(() => {}), PROBE_KEY_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
