// The server.json shape of the official MCP registry's first seed (../shared/data, 2025-05-16):
// `version_detail` instead of `version`, packages with `registry_name`/`name` and snake_case
// fields, remotes with `transport_type`. Such a record becomes an item of the current list answer
// (`{server, _meta}`, server.json 2025-12-11) here, so it goes through the same checks as anything
// upstream sends; a record that converts into nonsense (the seed's blank ones) is refused there.
import { OFFICIAL_META, SERVER_SCHEMA_URL } from './entry.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const camelKeys = (v: unknown) => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [camel(k), x])) : v);
const list = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);

/** A seed record: `version_detail` where the current shape has `version`. */
export function isSeedRecord(v: unknown): v is Json {
  return isObject(v) && isObject(v.version_detail) && !('version' in v);
}

/** An instant as ISO 8601 UTC, or undefined when it is missing or not a date. */
function instant(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v) return undefined;
  const t = new Date(v);
  return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
}

/** The seed gave no transport for one remote: an `/sse` path is the old SSE transport, anything else streamable HTTP. */
function remoteType(remote: Json): unknown {
  if (typeof remote.transport_type === 'string' && remote.transport_type) return remote.transport_type;
  try {
    return new URL(String(remote.url)).pathname.endsWith('/sse') ? 'sse' : 'streamable-http';
  } catch {
    return 'streamable-http';
  }
}

function convertPackage(p: unknown): unknown {
  if (!isObject(p)) return p;
  const env = list(p.environment_variables);
  const args = list(p.package_arguments);
  return {
    registryType: p.registry_name,
    identifier: p.name,
    version: p.version,
    // The seed predates transports on packages; its packages all ran as local processes.
    transport: { type: 'stdio' },
    ...(env ? { environmentVariables: env.map(camelKeys) } : {}),
    ...(args ? { packageArguments: args.map(camelKeys) } : {}),
  };
}

/** One seed record as an item of the current list answer. */
export function fromSeedRecord(old: Json): { server: Json; _meta: Json } {
  const detail = isObject(old.version_detail) ? old.version_detail : {};
  const server: Json = { $schema: SERVER_SCHEMA_URL, name: old.name, description: old.description, version: detail.version ?? '' };
  if (isObject(old.repository)) server.repository = { ...old.repository };
  const packages = list(old.packages);
  if (packages) server.packages = packages.map(convertPackage);
  const remotes = list(old.remotes);
  if (remotes) server.remotes = remotes.map((r) => (isObject(r) ? { type: remoteType(r), url: r.url } : r));
  const released = instant(detail.release_date);
  const official = {
    status: 'active',
    ...(released ? { publishedAt: released, updatedAt: released } : {}),
    isLatest: typeof detail.is_latest === 'boolean' ? detail.is_latest : true,
  };
  return { server, _meta: { [OFFICIAL_META]: official } };
}
