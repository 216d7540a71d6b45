// A2A agent cards: validation of the v0.3 and v1.0 shapes and what the registry keeps of them.
// Card text is untrusted: it is validated here and cleaned before it is stored.
import { z } from 'zod';

const skill = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  description: z.string().max(4000).optional(),
  tags: z.array(z.string().max(100)).max(50).optional(),
  examples: z.array(z.string().max(1000)).max(50).optional(),
});

const iface = z.object({
  url: z.string().min(1).max(2048),
  // v0.3 says `transport`; v1.0 says `protocolBinding` (and adds `protocolVersion` per interface).
  transport: z.string().optional(),
  protocolBinding: z.string().optional(),
  protocolVersion: z.string().optional(),
});

const common = {
  name: z.string().min(1),
  description: z.string(),
  version: z.string().optional(),
  documentationUrl: z.string().optional(),
  iconUrl: z.string().optional(),
  provider: z.object({ organization: z.string().optional(), url: z.string().optional() }).optional(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
  defaultInputModes: z.array(z.string()).optional(),
  defaultOutputModes: z.array(z.string()).optional(),
  skills: z.array(skill).max(500),
};

const cardV03 = z.object({
  ...common,
  protocolVersion: z.string().optional(),
  url: z.string().min(1).max(2048),
  preferredTransport: z.string().optional(),
  additionalInterfaces: z.array(iface).optional(),
});

const cardV1 = z.object({
  ...common,
  supportedInterfaces: z.array(iface).min(1),
});

export interface AgentCard {
  protocol: '0.3' | '1.0';
  name: string;
  description: string;
  version?: string;
  website?: string;
  documentationUrl?: string;
  /** The JSON-RPC endpoint the card declares. */
  endpoint?: string;
  skills: z.infer<typeof skill>[];
  inputModes: number;
  hasProvider: boolean;
  hasCapabilities: boolean;
}

/** Looks like someone meant it as an agent card (so a failed validation is `invalid_card`). */
export function looksLikeCard(doc: unknown): boolean {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return false;
  const d = doc as Record<string, unknown>;
  return 'skills' in d || 'supportedInterfaces' in d || ('name' in d && ('url' in d || 'protocolVersion' in d || 'capabilities' in d));
}

const isJsonRpc = (binding: string | undefined) => (binding ?? '').toUpperCase().replace(/[^A-Z]/g, '') === 'JSONRPC';

export type CardParse = { ok: true; card: AgentCard } | { ok: false; problems: string[] };

export function parseAgentCard(doc: unknown): CardParse {
  const v1 = cardV1.safeParse(doc);
  if (v1.success) {
    const c = v1.data;
    const rpc = c.supportedInterfaces.find((i) => isJsonRpc(i.protocolBinding ?? i.transport));
    return {
      ok: true,
      card: {
        protocol: '1.0',
        name: c.name,
        description: c.description,
        version: c.version,
        website: c.provider?.url,
        documentationUrl: c.documentationUrl,
        endpoint: rpc?.url,
        skills: c.skills,
        inputModes: c.defaultInputModes?.length ?? 0,
        hasProvider: Boolean(c.provider?.organization),
        hasCapabilities: Boolean(c.capabilities),
      },
    };
  }
  const v03 = cardV03.safeParse(doc);
  if (v03.success) {
    const c = v03.data;
    const preferred = c.preferredTransport ?? 'JSONRPC';
    const endpoint = isJsonRpc(preferred) ? c.url : c.additionalInterfaces?.find((i) => isJsonRpc(i.transport ?? i.protocolBinding))?.url;
    return {
      ok: true,
      card: {
        protocol: '0.3',
        name: c.name,
        description: c.description,
        version: c.version,
        website: c.provider?.url,
        documentationUrl: c.documentationUrl,
        endpoint,
        skills: c.skills,
        inputModes: c.defaultInputModes?.length ?? 0,
        hasProvider: Boolean(c.provider?.organization),
        hasCapabilities: Boolean(c.capabilities),
      },
    };
  }
  return { ok: false, problems: v03.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`) };
}
