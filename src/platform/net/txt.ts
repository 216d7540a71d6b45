// DNS TXT lookups for proofs of control (`_rollcall.<host>`). Only the configured resolvers are
// asked (CLAIM_DNS_SERVERS, else the system's): the query goes to a resolver, never to a host a
// stranger names, and its answer is only compared with a proof.
import { Resolver } from 'node:dns/promises';

/** The TXT records at a name, each record's strings joined (RFC 7208 style); [] when there are none. */
export type TxtLookup = (name: string) => Promise<string[]>;

export class TxtLookupError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TxtLookupError';
  }
}

const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

export function txtLookup(options: { servers?: string[]; timeoutMs: number }): TxtLookup {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 2 });
  if (options.servers?.length) resolver.setServers(options.servers);
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'EFAIL';
      if (NO_RECORDS.has(code)) return [];
      throw new TxtLookupError(code, `the DNS lookup of ${name} failed (${code})`);
    }
  };
}
