// capability_hash (TOOLS.md): lower-case, trim, dedupe, sort, join with "\n", SHA-256 hex.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { badRequest, conflict } from '../platform/errors.ts';
import { requireListing } from './operations.ts';

export function canonicalCapabilities(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => n.trim().toLowerCase()).filter((n) => n.length > 0))].sort();
}

export const hashCapabilities = (names: readonly string[]): string =>
  createHash('sha256').update(canonicalCapabilities(names).join('\n')).digest('hex');

/** The names a listing's hash covers: agent skill ids, MCP tool names (stored by the prober). */
export function capabilityNames(stored: string | null): string[] | null {
  if (!stored) return null;
  const parsed = JSON.parse(stored) as { names?: unknown };
  return Array.isArray(parsed.names) ? parsed.names.filter((n): n is string => typeof n === 'string') : null;
}

/**
 * A listing's capability set as every surface shows it (capability_hash, match_capability,
 * hyper_index, join_and_contribute): the canonical names of its skill ids or tool names and their
 * hash, '' when none are recorded. Titles and descriptions help search, never the hash.
 */
export function listingCapabilitySet(stored: string | null): { capabilities: string[]; capability_hash: string } {
  const capabilities = canonicalCapabilities(capabilityNames(stored) ?? []);
  return { capabilities, capability_hash: capabilities.length ? hashCapabilities(capabilities) : '' };
}

export const capabilityHash = defineOperation({
  name: 'capability_hash',
  title: 'Capability hash',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  output: z.looseObject({ ok: z.literal(true), capability_hash: z.string(), algorithm: z.string(), capabilities: z.array(z.string()), count: z.number(), listing_id: z.string().optional() }),
  description:
    'Canonical SHA-256 of a capability set (lower-case, trim, dedupe, sort, join with newlines). Give capabilities[] or the listing_id of a probed listing; equal sets give equal hashes.',
  input: z.object({
    capabilities: z.array(z.string().max(200)).max(500).optional().describe('Capability names (skill ids or tool names).'),
    listing_id: z.string().min(1).max(64).optional().describe('Hash the capabilities the prober recorded for this listing.'),
  }),
  async handler(ctx, input) {
    let canonical: string[];
    let listingId: string | undefined;
    if (input.capabilities !== undefined) {
      canonical = canonicalCapabilities(input.capabilities);
    } else if (input.listing_id !== undefined) {
      const row = await requireListing(ctx, input.listing_id);
      if (!capabilityNames(row.capabilities)) throw conflict('not_probed', 'this listing has no recorded capabilities yet: it has not been probed successfully', 'listing_id');
      canonical = listingCapabilitySet(row.capabilities).capabilities;
      listingId = row.id;
    } else {
      throw badRequest('invalid_input', 'capabilities or listing_id is required', 'capabilities');
    }
    if (canonical.length === 0) throw badRequest('invalid_input', 'capabilities must contain at least one non-empty name', 'capabilities');
    return {
      ok: true as const,
      capability_hash: hashCapabilities(canonical),
      algorithm: 'sha256(lower-case, trim, dedupe, sort, join "\\n")',
      capabilities: canonical,
      count: canonical.length,
      ...(listingId ? { listing_id: listingId } : {}),
    };
  },
});
