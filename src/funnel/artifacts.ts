// What an access token opens (DESIGN.md "Access tokens from demos", SPEC.md 5.2): a demo token
// opens that listing's demo artifacts (alive: the kernel and its loop; mcp_mesh: the mesh), a
// founding seat's full token the whole product. Pure, so every door answers the same.
import { AppError } from '../platform/errors.ts';
import type { TokenScope } from '../access/store.ts';
import { sku } from './deal.ts';

export const ARTIFACTS = ['kernel', 'loop', 'mesh', 'skills'] as const;
export type Artifact = (typeof ARTIFACTS)[number];

const DEMO_OPENS: Record<'alive' | 'mcp_mesh', Artifact[]> = { alive: ['kernel', 'loop'], mcp_mesh: ['mesh'] };

export function opens(scope: TokenScope, kind: 'agent' | 'mcp'): Artifact[] {
  return scope === 'full' ? [...ARTIFACTS] : DEMO_OPENS[sku(kind)];
}

/** A valid token that does not open this artifact (403: the token is real, its scope is narrower). */
export const scopeInsufficient = (artifact: Artifact, scope: TokenScope, kind: 'agent' | 'mcp', field = 'artifact') =>
  new AppError(
    403,
    'scope_insufficient',
    `this access token is scoped to the ${sku(kind)} demo (${opens(scope, kind).join(', ')}); ${artifact} comes with the full product: its owner's real feedback naming the Live listing takes a founding seat, whose new token opens everything`,
    field,
  );
