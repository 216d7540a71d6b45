// BENCH_PROFILE_DIR=<dir>: a CPU profile of one measured stretch of a bench, written as
// <dir>/<name>.cpuprofile (open it in Chrome DevTools), instead of --cpu-prof's whole process
// (warm-up, baselines and teardown mixed in). Without the variable it costs nothing.
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

export async function profileStretch(name: string): Promise<() => Promise<void>> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  };
}
