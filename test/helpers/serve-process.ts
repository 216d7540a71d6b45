// A `rollcall serve` process for a test: spawned with the given arguments and environment, killed
// when the test ends (a failed assertion must not leave it running), resolved once it says where it
// listens, with everything it has printed on stdout so far.
import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from 'node:child_process';
import type { TestContext } from 'node:test';

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  address: string;
  out: () => string;
}

export async function serveUntilListening(t: TestContext, args: string[], options: SpawnOptionsWithoutStdio): Promise<ServeProcess> {
  const child = spawn(process.execPath, args, options);
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in: ${out}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes('Rollcall is listening'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line).address);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, address, out: () => out };
}
