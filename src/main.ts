// The `rollcall` command line (bin/rollcall.mjs; `npm start` runs `serve`). The commands live in
// src/cli/, one file each (commands.ts lists them); configuration comes from the environment.
import { runCli } from './cli/run.ts';

// Exits with the command's code once it is done (for `serve`: after a clean shutdown), so no
// handle a command forgot can keep the process alive.
process.exit(await runCli(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env }));
