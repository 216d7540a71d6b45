// The identity domain's tables: the deployment's signing keys, the challenges bind_identity issues
// and the key each listing has bound. Only src/identity/ may import this module.
import { typed, type Executor } from '../platform/db/executor.ts';

/** One Ed25519 key of this deployment. The private half never leaves this table except to sign. */
export interface SigningKeysTable {
  kid: string; // RFC 7638 JWK thumbprint (SHA-256, base64url)
  generation: number; // unique: 0 for the first key, +1 per rotation (the race-free insert's key)
  public_jwk: string; // JSON {kty, crv, x}
  private_jwk: string; // JSON {kty, crv, x, d}
  created_at: string;
  active_from: string; // signs from then on (until a newer key is active)
  retire_at: string | null; // leaves the JWKS then; null while it is the newest key
}

export interface IdentityChallengesTable {
  id: string;
  listing_id: string;
  nonce: string;
  created_at: string;
  expires_at: string;
  used_at: string | null; // set once, atomically, by the proof that consumes it
}

export interface IdentityBindingsTable {
  listing_id: string;
  public_jwk: string; // JSON {kty, crv, x}
  kid: string; // the key's RFC 7638 thumbprint
  bound_at: string;
}

export interface IdentityTables {
  signing_keys: SigningKeysTable;
  identity_challenges: IdentityChallengesTable;
  identity_bindings: IdentityBindingsTable;
}

export const identityTables = (ex: Executor) => typed<IdentityTables>(ex);
