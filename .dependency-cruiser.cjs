// The dependency rules of docs/architecture.md, checked by `npm test` (scripts/test.mjs) and
// shown failing on planted violations in test/architecture.test.ts.
//
// Layers, bottom to top: config and platform -> domains (in DOMAINS order, a lower one never
// imports a higher one) -> registry (read models and composed operations) -> http (doors) ->
// the assembly (app.ts, services.ts, catalog.ts, main.ts, migrations/, and cli/: the operator's
// commands, which build services and run operations as the app does).

/** Domains from the bottom up. A new domain takes its place here (one line). */
const DOMAINS = ['listings', 'catalog', 'feed', 'inbox', 'a2a', 'access', 'owners', 'metering', 'traces', 'feedback', 'talk', 'funnel', 'probe', 'identity', 'search', 'kernel', 'mesh', 'collab', 'connectors', 'economics'];
const ABOVE_DOMAINS = ['registry', 'http'];
const ASSEMBLY = '^src/(app|services|catalog|main)\\.ts$|^src/(migrations|cli)/';

const folder = (name) => `^src/${name}/`;
const anyOf = (names) => `^src/(${names.join('|')})/`;

const domainRules = DOMAINS.map((domain, i) => ({
  name: `${domain}-layer`,
  comment: `${domain} may use lower domains and platform only: not ${[...DOMAINS.slice(i + 1), ...ABOVE_DOMAINS].join(', ')} nor the assembly`,
  severity: 'error',
  from: { path: folder(domain) },
  to: { path: `${anyOf([...DOMAINS.slice(i + 1), ...ABOVE_DOMAINS])}|${ASSEMBLY}` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles anywhere in src/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-domain',
      comment: 'platform/ imports only platform/ and config.ts: no domain, no door, no assembly.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/platform/|^src/config\\.ts$' },
    },
    {
      name: 'config-stands-alone',
      comment: 'config.ts is read by every layer and imports none.',
      severity: 'error',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/' },
    },
    ...domainRules,
    {
      name: 'registry-no-door',
      comment: 'Read models and composed operations know no door and no assembly.',
      severity: 'error',
      from: { path: folder('registry') },
      to: { path: `${folder('http')}|${ASSEMBLY}` },
    },
    {
      name: 'doors-no-assembly',
      comment: 'Doors translate: they get the catalog and services from the assembly, never import it.',
      severity: 'error',
      from: { path: folder('http') },
      to: { path: ASSEMBLY },
    },
    {
      name: 'tables-owned-by-their-folder',
      comment:
        "A domain's tables are queried only from its own folder: the database handle knows no tables, and the typed one lives in <domain>/tables.ts, which only that folder (with its subfolders, such as store/) may import. The owner is the domain folder, or platform/<part> for platform's tables.",
      severity: 'error',
      from: { path: '^src/(platform/[^/]+|[^/]+)/' },
      to: { path: '^src/(.+)/tables\\.ts$', pathNot: '^src/$1/tables\\.ts$' },
    },
    {
      name: 'known-folders-only',
      comment: 'Every folder of src/ has a place in the layers above (add a new domain to DOMAINS).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+/', pathNot: `^src/(platform|migrations|cli|${[...DOMAINS, ...ABOVE_DOMAINS].join('|')})/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|bench|scripts)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
