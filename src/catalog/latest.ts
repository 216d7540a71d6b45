// Which stored version of a server is its latest: the semver-newest of the versions not deleted
// (upstream's `isLatest` is not trusted for it: a file load of the old seed marks every version
// latest, and the official rule is semver order). When a version is not semver, the newest
// published wins, as the official registry orders such versions. Deleted versions count only when
// every version is deleted, so the server's removal reaches the change feed.
import semver from 'semver';

export interface VersionFacts {
  version: string;
  status: string;
  published_at: string | null;
  updated_at: string;
}

const when = (v: VersionFacts) => v.published_at ?? v.updated_at;

/** The version that is latest among `versions` (undefined for none). */
export function newestVersion(versions: readonly VersionFacts[]): string | undefined {
  const live = versions.filter((v) => v.status !== 'deleted');
  const pool = live.length ? live : versions;
  if (!pool.length) return undefined;
  const allSemver = pool.every((v) => semver.valid(v.version) !== null);
  const newer = (a: VersionFacts, b: VersionFacts): boolean => {
    if (allSemver) {
      const order = semver.compare(a.version, b.version);
      if (order !== 0) return order > 0;
    }
    if (when(a) !== when(b)) return when(a) > when(b);
    return a.version > b.version;
  };
  return pool.reduce((best, v) => (newer(v, best) ? v : best)).version;
}
