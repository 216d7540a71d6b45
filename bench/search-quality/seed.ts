// The catalogs search quality is measured on, read from ../shared/data at bench time (never copied
// into the project) and turned into SearchDocs: the MCP registry seed and the community dev
// catalog, both in the old server.json format.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SearchDoc } from '../../src/search/engine.ts';

export const SEED_PATH =
  process.env.SEARCH_SEED_PATH ?? fileURLToPath(new URL('../../../shared/data/mcp-registry-seed-2025-05-16.json', import.meta.url));

interface SeedRecord {
  name?: string;
  description?: string;
  repository?: { url?: string };
  packages?: { registry_name?: string; name?: string }[];
}

/**
 * id = name, kind mcp, source catalog, title = the part after the last '/', tags from package
 * names and registries (npm, pypi; "docker" is left out: a distribution format that would match
 * every container query) and the repository's owner/repo words. The seed has no tool lists.
 */
export function seedToDoc(r: SeedRecord): SearchDoc | undefined {
  const name = r.name?.trim();
  if (!name) return undefined;
  const tags = new Set<string>();
  for (const p of r.packages ?? []) {
    if (p.registry_name === 'npm' || p.registry_name === 'pypi') tags.add(p.registry_name);
    if (p.name) tags.add(p.name);
  }
  const repo = /^https?:\/\/[^/]+\/([^/]+)\/([^/#?]+)/.exec(r.repository?.url ?? '');
  if (repo) tags.add(`${repo[1]} ${repo[2]!.replace(/\.git$/, '')}`);
  return {
    id: name,
    kind: 'mcp',
    source: 'catalog',
    name,
    title: name.slice(name.lastIndexOf('/') + 1),
    description: (r.description ?? '').trim(),
    capabilities: [],
    tags: [...tags],
  };
}

export const DEV_PATH =
  process.env.SEARCH_DEV_PATH ?? fileURLToPath(new URL('../../../shared/data/community-catalog-dev-2026.json', import.meta.url));

function loadFile(file: string): SearchDoc[] {
  const records = JSON.parse(fs.readFileSync(file, 'utf8')) as SeedRecord[];
  return records.map(seedToDoc).filter((d): d is SearchDoc => d !== undefined);
}

export const loadSeed = (): SearchDoc[] => loadFile(SEED_PATH);
export const loadDev = (): SearchDoc[] => loadFile(DEV_PATH);
