// A server's latest version is its semver-newest (catalog/latest.ts), not the one upstream or a
// file load marked: every stored server's mark is set again by that rule.
import type { Kysely, Migration } from 'kysely';
import { newestVersion, type VersionFacts } from '../catalog/latest.ts';

type Row = VersionFacts & { name: string; is_latest: number };

export const m0033 = (): Migration => ({
  async up(k: Kysely<any>) {
    const rows = (await k.selectFrom('catalog_servers').select(['name', 'version', 'status', 'published_at', 'updated_at', 'is_latest']).execute()) as Row[];
    const byName = new Map<string, Row[]>();
    for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
    for (const [name, versions] of byName) {
      const newest = newestVersion(versions);
      for (const v of versions) {
        const mark = v.version === newest ? 1 : 0;
        if (Number(v.is_latest) !== mark) await k.updateTable('catalog_servers').set({ is_latest: mark }).where('name', '=', name).where('version', '=', v.version).execute();
      }
    }
  },
});
