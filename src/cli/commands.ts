// The commands of `rollcall`: each one's help and options here (cheap to load, so --help is
// fast), its code in its own file, loaded only when it runs.
import type { Command } from './command.ts';

const EXIT_CODES = 'Exit codes: 0 ok, 1 failed, 2 usage error';
const JSON_HELP = '  --json           one JSON document on stdout instead of text (errors too: {"ok":false,"error":{...}})';

export const COMMANDS: Command[] = [
  {
    name: 'serve',
    summary: 'start the HTTP service (the default command)',
    help: `usage: rollcall serve [--port <n>] [--host <address>]

Starts Rollcall: the REST and MCP doors, the probe pool and the periodic jobs, on the configured
database (DATABASE_URL, else the SQLite file in DATA_DIR). SIGTERM or Ctrl-C stops taking
requests, finishes those in flight and exits 0.

  --port <n>        listen on this port (overrides PORT)
  --host <address>  listen on this address (overrides HOST)
  --json            accepted for uniformity: the log is always JSON lines on stdout

${EXIT_CODES}: 0 after a clean shutdown, 1 it could not start (configuration, port in use), 2 usage.`,
    options: { port: { type: 'string' }, host: { type: 'string' } },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./serve.ts')).run,
  },
  {
    name: 'migrate',
    summary: 'bring the database schema up to date and exit',
    help: `usage: rollcall migrate [--json]

Applies the migrations the configured database lacks (the server also does this at start).

${JSON_HELP}: {"ok":true,"applied":[...]}

${EXIT_CODES}.`,
    options: {},
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./migrate.ts')).run,
  },
  {
    name: 'probe',
    summary: 'probe a card or MCP URL now: every check and the score (no database needed)',
    help: `usage: rollcall probe <url> [--json]

Probes an agent card or MCP server URL now without listing it: the real protocol handshake, every
clean check and the score with its breakdown. Loopback and private addresses are refused unless
PROBE_ALLOW_PRIVATE=1 (development only).

${JSON_HELP}: what the probe_clean tool answers

${EXIT_CODES}: 0 it could go Live, 1 it could not (refused, unreachable, handshake or checks failed), 2 no or malformed URL.`,
    options: {},
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./probe.ts')).run,
  },
  {
    name: 'list',
    summary: 'list a card or MCP URL (list_yourself) and wait until its probe decides',
    help: `usage: rollcall list <url> [--server <base-url>] [--name <name>] [--email <email>] [--source <text>] [--no-wait] [--timeout <s>] [--json]

Lists an agent card or MCP server (the list_yourself operation), then waits for its probe and
shows the listing's status.

Without --server it runs in this process on the configured database: the listing is written as a
server would write it, and its probe job runs here as soon as it is due and no server holds it
(a server on the same database may take it first; either way the status is polled until the
probe decides). With --server it talks to that running Rollcall over HTTP instead
(POST /api/publish, then GET /api/listings/status), like any publisher.

  --server <base-url>  a running Rollcall, for example http://localhost:8080
  --name <name>        used only when the card has no name
  --email <email>      contact email, kept private
  --source <text>      where you heard of Rollcall
  --no-wait            return once listed; the probe runs later (in a server)
  --timeout <s>        how long to wait for the probe (default 60)
${JSON_HELP}: the check_status answer with outcome, reprobe, live and waited_ms

${EXIT_CODES}: 0 Live (with --no-wait: listed), 1 not Live (probe failed, still waiting at
--timeout, URL refused, server unreachable), 2 usage (no or malformed URL, bad option).`,
    options: {
      server: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      source: { type: 'string' },
      'no-wait': { type: 'boolean' },
      timeout: { type: 'string' },
    },
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./list.ts')).run,
  },
  {
    name: 'search',
    summary: 'natural-language search over the catalog and the Live listings',
    help: `usage: rollcall search <query...> [--limit <n>] [--kind agent|mcp] [--json]

Searches the configured database with the engine a server runs (ard_search: the synced catalog
and the Live listings, relevance first). The words of the query may be given unquoted.

  --limit <n>        hits to show, 1-100 (default 10)
  --kind agent|mcp   only agents or only MCP servers
${JSON_HELP}: the ard_search answer

${EXIT_CODES}: 0 searched (also with no hits), 1 failed, 2 empty query or bad option.`,
    options: { limit: { type: 'string' }, kind: { type: 'string' } },
    positionals: { min: 1, max: 50 },
    load: async () => (await import('./search.ts')).run,
  },
  {
    name: 'sync-catalog',
    summary: 'pull the upstream registry (UPSTREAM_REGISTRY_URL) into the catalog, or load it from a file',
    help: `usage: rollcall sync-catalog [--full] [--json]
       rollcall sync-catalog --file <path> [--json]

Pulls the upstream registry (UPSTREAM_REGISTRY_URL, the official MCP registry API) into the
catalog: what changed since the last run, or everything with --full. Progress goes to stderr (a
bar on a terminal; otherwise a plain line at most every 10 s). Ctrl-C keeps the place: the next
run (by hand or the periodic job) resumes there. The upstream goes through the outbound guard:
loopback and private addresses, and ports other than 80 and 443, are refused unless
PROBE_ALLOW_PRIVATE=1 (development only).

With --file it loads a local file instead, without the network: the registry's list answer
(GET /v0.1/servers or /v0/servers: {"servers": [{"server": {...}, "_meta": {...}}], "metadata": {...}})
or a JSON array of server.json objects (the current shape, or the 2025-05-16 seed's). Each entry
is checked like a synced one (an invalid one is refused and counted), and the whole file is stored
in one transaction, all of it or nothing (Ctrl-C stores nothing); a file that is missing, not JSON
or not a server list is refused before anything is stored.

  --full           pull everything again (unchanged entries are left alone)
  --file <path>    load this file instead of syncing (UPSTREAM_REGISTRY_URL is not needed)
${JSON_HELP}: the sync result (stored, unchanged, skipped, catalog counts, _meta),
                   or with --file the load result (read, added, updated, unchanged, refused, catalog counts)

${EXIT_CODES}: 0 done, 1 failed (a refused upstream, a bad file) or another sync is running,
2 usage or no UPSTREAM_REGISTRY_URL (without --file), 130 interrupted.`,
    options: { full: { type: 'boolean' }, file: { type: 'string' } },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./sync-catalog.ts')).run,
  },
  {
    name: 'check-catalog',
    summary: "check the catalog's remote servers now: live, behind a login, dead, not MCP",
    help: `usage: rollcall check-catalog [--name <server>] [--json]

Checks every remote server of the catalog now (or those of one server's latest version, --name),
as the schedule does after a sync: a real MCP handshake (streamable HTTP, or the legacy HTTP+SSE
transport), through the outbound guard, within each host's budget (a host whose budget is spent
this hour waits for the schedule). Run it after a first sync instead of waiting. Progress goes to
stderr (a bar on a terminal), then a summary by status.

  --name <server>  only this server's remotes (its reverse-DNS name, io.github.owner/repo)
${JSON_HELP}: {"ok":true,"remotes":n,"checked":n,"waiting":n,"by_status":{...}}

${EXIT_CODES}: 0 done, 1 no such server, 130 interrupted.`,
    options: { name: { type: 'string' } },
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./check-catalog.ts')).run,
  },
  {
    name: 'keys',
    summary: "the deployment's signing keys: keys rotate, keys list",
    help: `usage: rollcall keys rotate [--json]
       rollcall keys list [--json]

  rotate   add a new Ed25519 signing key: in the JWKS at once, signing 10 minutes later; the
           previous key stays published for 7 days. Restart the servers within those 7 days so
           the documents they sign at start use the new key. (\`rollcall rotate-key\` is the same.)
  list     the published keys: kid, generation, active from, retire at, and which one signs now
           (never a private half)
${JSON_HELP}

${EXIT_CODES}.`,
    options: {},
    positionals: { min: 1, max: 1 },
    load: async () => (await import('./keys.ts')).run,
  },
  {
    name: 'stats',
    summary: 'counts: listings by kind and lane, catalog, jobs, searches today, signing keys',
    help: `usage: rollcall stats [--json]

Counts from the configured database: listings by kind and lane (with probed, checks clean,
founding verified and identity bound), catalog servers and versions, jobs due and running by kind,
search queries today (UTC) and the signing keys.

${JSON_HELP}

${EXIT_CODES}.`,
    options: {},
    positionals: { min: 0, max: 0 },
    load: async () => (await import('./stats.ts')).run,
  },
];

/** Old names that still work: `rotate-key` is `keys rotate`. */
export const ALIASES: Record<string, string[]> = { 'rotate-key': ['keys', 'rotate'] };

export const TOP_HELP = `usage: rollcall <command> [options]     (rollcall <command> --help for one command)

${COMMANDS.map((c) => `  ${c.name.padEnd(13)} ${c.summary}`).join('\n')}
  rotate-key    the same as keys rotate

Every command takes --help and --json (one JSON document on stdout instead of text);
rollcall --version prints the version.
Exit codes: 0 ok, 1 the thing failed (a probe, a listing that did not go Live), 2 usage error,
130 interrupted. Configuration comes from the environment (docs/guide/configuration.md).`;
