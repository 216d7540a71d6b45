// A listing's bound key as the binding operations return it.
import type { Ed25519PublicJwk } from '../keys.ts';
import { publicPart } from '../keys.ts';

export interface Binding {
  listing_id: string;
  public_jwk: Ed25519PublicJwk;
  kid: string;
  bound_at: string;
}

export const toBinding = (r: { listing_id: string; public_jwk: string; kid: string; bound_at: string }): Binding => ({
  listing_id: r.listing_id,
  public_jwk: publicPart(JSON.parse(r.public_jwk) as Ed25519PublicJwk),
  kid: r.kid,
  bound_at: r.bound_at,
});
