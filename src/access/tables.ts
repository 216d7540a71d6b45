// The access domain's table: access tokens (DESIGN.md "Access tokens"). Only the SHA-256 of a
// token is stored; the token itself is shown once, when issued. Only files in src/access/ may
// import this module.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export type TokenScope = 'demo' | 'full';

export interface AccessTokensTable {
  id: string; // tok_..., safe to show and log
  hash: string; // hex SHA-256 of the token
  listing_id: string; // the listing whose product it opens
  holder: string; // who holds it (metering subject key): a demo's caller, or `listing:<id>` for the owner
  scope: TokenScope; // demo: that listing's demo artifacts; full: the whole product (founding seat)
  claim_id: string | null; // the owner claim (owner token id, own_...) an owner's token was issued under; null for other holders
  created_at: string;
  widened_at: string | null; // set only on tokens widened before grants issued new ones
  revoked_at: string | null;
}

export type AccessTables = { access_tokens: AccessTokensTable };

export const accessTables = (ex: Executor) => typed<AccessTables>(ex);
