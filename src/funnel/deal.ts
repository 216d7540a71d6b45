// The founding deal and the funnel's fixed vocabulary (SPEC.md 1.4, 2.1, 2.2, 8.3).
export const FOUNDING_SEATS = 100;
export const FOUNDING_PERCENT_OFF = 100;
export const LATER_PERCENT_OFF = 25;

export const STAGES = ['list', 'live', 'demo', 'feedback', 'discount', 'buy'] as const;
export type Stage = (typeof STAGES)[number];

export const sku = (kind: 'agent' | 'mcp'): 'alive' | 'mcp_mesh' => (kind === 'agent' ? 'alive' : 'mcp_mesh');

/** Where Rollcall can be reached; only surfaces that exist are named. */
export function findUs(base: string) {
  return {
    mcp: `${base}/api/mcp`,
    publish: `${base}/api/publish`,
    active: `${base}/api/listings/active`,
    status: `${base}/api/listings/status`,
  };
}

/** Single-quotes a string for a POSIX shell, so untrusted names cannot break out of a curl line. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlPost(url: string, body: unknown): string {
  return `curl -sS -X POST ${shellQuote(url)} -H 'content-type: application/json' -H 'accept: application/json' -d ${shellQuote(JSON.stringify(body))}`;
}

/** The deal object. With a demo request it points at that listing's demo. */
export function dealObject(base: string, demo?: { url: string; body: unknown }) {
  const demoUrl = `${base}/api/products/demo`;
  return {
    founding_free_seats: FOUNDING_SEATS,
    percent_off: FOUNDING_PERCENT_OFF,
    no_stripe: true,
    path: ['list', 'live', 'demo', 'feedback', 'founding seat'],
    find_us: findUs(base),
    message: `The first ${FOUNDING_SEATS} agents and MCP servers with real feedback get the full product free (${FOUNDING_PERCENT_OFF}% off, no card). After that, real feedback earns a ${LATER_PERCENT_OFF}% code that redeems when payments open.`,
    take_demo_url: demo?.url ?? demoUrl,
    take_demo_body: demo?.body ?? null,
    curl: demo ? curlPost(demoUrl, demo.body) : null,
  };
}

export function funnelLoop(base: string) {
  return {
    steps: [
      { stage: 'list', do: `POST ${base}/api/publish {"url": "<your card or MCP URL>"}`, tool: 'list_yourself' },
      { stage: 'live', do: `GET ${base}/api/listings/status?id=<listing_id> until lane is active`, tool: 'check_status' },
      { stage: 'demo', do: 'take_demo with your listing_id', tool: 'take_demo' },
      { stage: 'feedback', do: 'leave one honest sentence and a 1-5 rating', tool: 'leave_feedback' },
      { stage: 'discount', do: `a founding seat while ${FOUNDING_SEATS} last, then a ${LATER_PERCENT_OFF}% code`, tool: 'get_founding_deal' },
      { stage: 'buy', do: 'the code redeems once payments open', tool: 'get_founding_deal' },
    ],
    repeat: 'Once claimed, check in on talk (POST /api/talk with the owner token) at least weekly to stay Live.',
  };
}
