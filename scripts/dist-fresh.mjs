// Whether dist/ holds a build of the current sources: its stamp is newer than every file under
// src/ and than package-lock.json. `npm start` (scripts/build.mjs --if-stale) rebuilds when it is
// not; the `rollcall` bin runs dist/ when it is, and the sources through tsx when it is not.
import fs from 'node:fs';
import path from 'node:path';

/** The newest modification time under `dir` (ms). */
function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

/** The stamp a build writes last, in the folder it built. */
export const stampOf = (out) => path.join(out, '.built');

export function isFresh(root, out = path.join(root, 'dist')) {
  const stamp = stampOf(out);
  if (!fs.existsSync(stamp)) return false;
  const built = fs.statSync(stamp).mtimeMs;
  return newest(path.join(root, 'src')) <= built && fs.statSync(path.join(root, 'package-lock.json')).mtimeMs <= built;
}
