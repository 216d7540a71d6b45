// The JSON an agent card signature covers, by A2A 1.0.1 section 8.4.1 (the specification text of
// a2aproject/A2A at tag v1.0.1): the card read through the v1 AgentCard schema
// (specification/a2a.proto) with protobuf field presence, then RFC 8785 (JCS).
// - a REQUIRED field is always kept, even empty;
// - an `optional` field is kept when present, whatever its value;
// - any other field is dropped when it holds its default ("" / 0 / false / [] / {});
// - a message field (provider, capabilities) has presence: kept when present, its own fields
//   processed the same way; security schemes and requirements lose their default members;
// - `signatures` is left out, and so are members the v1 schema does not define (section 5.7:
//   unrecognized fields are ignored), such as the v0.3 top-level `url`, `protocolVersion` and
//   `preferredTransport`: the same projection @a2a-js/sdk's `canonicalizeAgentCard` makes.
import { canonicalizeAgentCard } from '@a2a-js/sdk';
import canonicalize from 'canonicalize';

type Kind = 'required' | 'optional' | 'implicit';
interface Field {
  kind: Kind;
  /** The schema of a message-typed field (or of each element of a repeated one). */
  message?: Schema;
  /** Security schemes and requirements: every member read with implicit presence. */
  values?: 'generic';
}
type Schema = Record<string, Field>;

const r = (message?: Schema): Field => ({ kind: 'required', ...(message ? { message } : {}) });
const o = (): Field => ({ kind: 'optional' });
const i = (message?: Schema): Field => ({ kind: 'implicit', ...(message ? { message } : {}) });
const generic = (): Field => ({ kind: 'implicit', values: 'generic' });

const AGENT_INTERFACE: Schema = { url: r(), protocolBinding: r(), tenant: i(), protocolVersion: r() };
const AGENT_PROVIDER: Schema = { url: r(), organization: r() };
const AGENT_EXTENSION: Schema = { uri: i(), description: i(), required: i(), params: { kind: 'implicit' } };
const AGENT_CAPABILITIES: Schema = { streaming: o(), pushNotifications: o(), extensions: i(AGENT_EXTENSION), extendedAgentCard: o() };
const AGENT_SKILL: Schema = {
  id: r(),
  name: r(),
  description: r(),
  tags: r(),
  examples: i(),
  inputModes: i(),
  outputModes: i(),
  securityRequirements: generic(),
};

/** A2A v1 AgentCard (a2a.proto at v1.0.1), field names as in its JSON form. */
const AGENT_CARD: Schema = {
  name: r(),
  description: r(),
  supportedInterfaces: r(AGENT_INTERFACE),
  provider: i(AGENT_PROVIDER),
  version: r(),
  documentationUrl: o(),
  capabilities: r(AGENT_CAPABILITIES),
  securitySchemes: generic(),
  securityRequirements: generic(),
  defaultInputModes: r(),
  defaultOutputModes: r(),
  skills: r(AGENT_SKILL),
  iconUrl: o(),
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A protobuf implicit default: dropped unless the field is required or optional. */
function isDefault(v: unknown): boolean {
  return v === '' || v === 0 || v === false || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** Security schemes and requirements: proto3 messages whose every field has implicit presence. */
function withoutDefaults(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDefaults);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutDefaults(x);
    if (!isDefault(y)) out[k] = y;
  }
  return out;
}

function project(value: unknown, field: Field): unknown {
  if (field.values === 'generic') return withoutDefaults(value);
  if (!field.message) return value;
  const read = (v: unknown) => (isObject(v) ? message(v, field.message!) : v);
  return Array.isArray(value) ? value.map(read) : read(value);
}

/** One message's fields, each kept or dropped by its presence in the proto. */
function message(object: Record<string, unknown>, schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema)) {
    if (!(name in object) || object[name] === undefined) continue;
    const value = project(object[name], field);
    // A message field (not repeated) has presence: present is kept, even with nothing set in it.
    const hasPresence = field.message !== undefined && !Array.isArray(object[name]);
    if (field.kind === 'implicit' && !hasPresence && isDefault(value)) continue;
    out[name] = value;
  }
  return out;
}

/** The card as section 8.4.1 canonicalizes it, before JCS: defaults and `signatures` removed. */
export function canonicalCardObject(card: Record<string, unknown>): Record<string, unknown> {
  return message(card, AGENT_CARD);
}

/** The RFC 8785 text a card signature covers (section 8.4.1). */
export function canonicalCardJson(card: Record<string, unknown>): string {
  const json = canonicalize(canonicalCardObject(card));
  if (json === undefined) throw new Error('the agent card cannot be serialized as JSON');
  return json;
}

/**
 * Every payload a signature over this card may cover, distinct: section 8.4.1's form,
 * @a2a-js/sdk's (which also drops empty REQUIRED members) and the whole card as served without
 * `signatures` (what signers of v0.3 cards commonly cover). Each is the card's own content, so a
 * changed card fails all of them.
 */
export function cardPayloadForms(card: Record<string, unknown>): string[] {
  const { signatures: _signatures, ...served } = card;
  const forms = [canonicalCardJson(card), canonicalize(served)];
  try {
    forms.push(canonicalizeAgentCard(card as Parameters<typeof canonicalizeAgentCard>[0]));
  } catch {
    // A card the SDK's reader refuses is still checked in the other forms.
  }
  return [...new Set(forms.filter((f): f is string => typeof f === 'string'))];
}
