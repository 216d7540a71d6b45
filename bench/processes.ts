// Server processes for benchmarks: each side runs in its own process, started and stopped here.
import { spawn, type ChildProcess } from 'node:child_process';

/** Starts a server process (in `cwd`, this project's folder when not given) and resolves once `probeUrl` answers. */
export async function startChild(args: string[], env: Record<string, string>, probeUrl: string, cwd?: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'], cwd });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}`);
    try {
      if ((await fetch(probeUrl)).ok) return child;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not start`);
}

export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
