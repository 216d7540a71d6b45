// The ARD capability manifest (ards-project/ard-spec at 5fa2f5a, spec/schemas/ai-catalog.schema.json,
// specVersion 1.0) at /.well-known/ard.json: Rollcall's surfaces (surfaces.ts) as ARD entries, with
// the media type in `type`, `capabilities` and 2-5 `representativeQueries`, and the
// `application/ai-registry+json` entry whose `url` is the base of the ARD API (POST /search).
import type { DiscoveryModel } from './model.ts';
import { catalogHost, discoverySurfaces } from './surfaces.ts';

export const ARD_SPEC_VERSION = '1.0';

export function ardManifestDocument(model: DiscoveryModel) {
  return {
    specVersion: ARD_SPEC_VERSION,
    host: catalogHost(model),
    entries: discoverySurfaces(model).map((s) => ({
      identifier: s.identifier,
      displayName: s.displayName,
      type: s.mediaType,
      url: s.url,
      description: s.description,
      ...(s.version ? { version: s.version } : {}),
      tags: s.tags,
      capabilities: s.capabilities,
      representativeQueries: s.representativeQueries,
    })),
  };
}
