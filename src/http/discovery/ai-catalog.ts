// The AI Catalog (Agent-Card/ai-catalog at 634a09d, specVersion 1.0) at /.well-known/ai-catalog.json,
// served as `application/ai-catalog+json`: Rollcall's surfaces (surfaces.ts) as catalog entries,
// each with exactly the members the specification's CDDL defines (`mediaType`, not ARD's `type`;
// ARD's `capabilities` and `representativeQueries` are in the ARD manifest, ard-manifest.ts).
import type { DiscoveryModel } from './model.ts';
import { catalogHost, discoverySurfaces } from './surfaces.ts';

export const AI_CATALOG_SPEC_VERSION = '1.0';
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

export function aiCatalogDocument(model: DiscoveryModel) {
  return {
    specVersion: AI_CATALOG_SPEC_VERSION,
    host: catalogHost(model),
    entries: discoverySurfaces(model).map((s) => ({
      identifier: s.identifier,
      displayName: s.displayName,
      mediaType: s.mediaType,
      url: s.url,
      description: s.description,
      ...(s.version ? { version: s.version } : {}),
      tags: s.tags,
    })),
    // Where ARD clients find the same entries in ARD's form.
    metadata: { ardManifest: model.docs.ard },
  };
}
