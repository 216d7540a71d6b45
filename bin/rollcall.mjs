#!/usr/bin/env node
// The `rollcall` command (package.json "bin"). It registers tsx's loader and runs src/main.ts in
// this same process, so a signal sent to `rollcall serve` (SIGTERM, Ctrl-C) reaches the server.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
