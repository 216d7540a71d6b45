// The x402 facilitator (X402_FACILITATOR_URL): POST /verify before the work, POST /settle after it,
// each with `{x402Version, paymentPayload, paymentRequirements}` (x402 spec "Facilitator Interface").
// Calls go through the one guarded outbound client with the prober's address policy: the URL is
// operator configuration, but it gets no wider reach than a stranger's URL would (a facilitator on
// loopback or a private address needs PROBE_ALLOW_PRIVATE=1, as in development and tests).
import type { Config } from '../config.ts';
import { AppError } from '../platform/errors.ts';
import { GuardedClient, OutboundError } from '../platform/net/guarded-client.ts';
import { hostBudgetError, type HostBudgets } from '../platform/budget/host-budgets.ts';
import { policyFor } from '../platform/net/address-policy.ts';
import type { Logger } from '../platform/log.ts';

export interface FacilitatorRequest {
  x402Version: 1 | 2;
  paymentPayload: Record<string, unknown>;
  paymentRequirements: object;
}

export interface VerifyResponse {
  isValid: boolean;
  invalidReason?: string;
  payer?: string;
}

export interface SettleResponse {
  success: boolean;
  errorReason?: string;
  transaction: string;
  network: string;
  payer?: string;
}

/** Facilitator answers are small JSON objects. */
const MAX_BODY = 64 * 1024;

// One client per configuration (one per app), made on the first paid call. Its idle sockets do not
// hold the process open; closeFacilitator ends them at shutdown.
const clients = new WeakMap<Config['x402'], GuardedClient>();

function clientFor(config: Config): GuardedClient {
  let client = clients.get(config.x402);
  if (!client) {
    client = new GuardedClient({
      policy: policyFor(config.probeAllowPrivate),
      userAgent: `Rollcall-X402/${config.version} (+${config.publicBaseUrl}/for-agents)`,
      connectTimeoutMs: config.probeConnectTimeoutMs,
      totalTimeoutMs: config.x402.timeoutMs,
      maxBodyBytes: MAX_BODY,
      perHostConcurrency: 8,
    });
    clients.set(config.x402, client);
  }
  return client;
}

export async function closeFacilitator(config: Config): Promise<void> {
  const client = clients.get(config.x402);
  clients.delete(config.x402);
  await client?.close();
}

const unavailable = (what: string) =>
  new AppError(503, 'facilitator_unavailable', `the x402 facilitator could not be reached (${what}); nothing was charged and the call did not run: try again later`).withHeaders({ 'retry-after': '30' });

const badAnswer = (what: string) => new AppError(502, 'facilitator_error', `the x402 facilitator gave no usable answer (${what}); nothing was charged and the call did not run`);

/** A facilitator call: its requests count against the facilitator host's outbound budget (the operator's own work). */
async function post(config: Config, log: Logger, budgets: HostBudgets, path: 'verify' | 'settle', body: FacilitatorRequest): Promise<Record<string, unknown>> {
  const url = `${config.x402.facilitatorUrl}/${path}`;
  let res: Awaited<ReturnType<GuardedClient['fetch']>>;
  try {
    res = await clientFor(config).fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), admit: budgets.admitter('owner') });
  } catch (err) {
    if (err instanceof OutboundError && err.reason === 'host_budget') throw hostBudgetError(`${err.message}; nothing was charged and the call did not run`, budgets.hourRetryAfterS());
    const reason = err instanceof OutboundError ? err.reason : 'unreachable';
    log.warn({ facilitator: config.x402.facilitatorUrl, path, reason }, 'x402 facilitator unreachable');
    throw unavailable(reason === 'timeout' ? `no answer within ${config.x402.timeoutMs} ms` : reason);
  }
  let json: unknown;
  try {
    json = JSON.parse(res.text());
  } catch {
    json = undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    log.warn({ facilitator: config.x402.facilitatorUrl, path, status: res.status }, 'x402 facilitator answered without JSON');
    throw res.status >= 500 ? unavailable(`HTTP ${res.status}`) : badAnswer(`HTTP ${res.status}, not JSON`);
  }
  return json as Record<string, unknown>;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v.slice(0, 200) : undefined);

/** Asks the facilitator whether a payment is valid for the requirements (no funds move). */
export async function verifyPayment(config: Config, log: Logger, budgets: HostBudgets, body: FacilitatorRequest): Promise<VerifyResponse> {
  const json = await post(config, log, budgets, 'verify', body);
  // A verdict counts whatever the status (some facilitators answer an invalid payment with 400).
  if (typeof json.isValid !== 'boolean') throw badAnswer('/verify said neither valid nor invalid');
  return { isValid: json.isValid, invalidReason: text(json.invalidReason) ?? (json.isValid ? undefined : 'invalid_payment'), payer: text(json.payer) };
}

/** Asks the facilitator to execute a verified payment. */
export async function settlePayment(config: Config, log: Logger, budgets: HostBudgets, body: FacilitatorRequest): Promise<SettleResponse> {
  const json = await post(config, log, budgets, 'settle', body);
  if (typeof json.success !== 'boolean') throw badAnswer('/settle said neither success nor failure');
  return {
    success: json.success,
    ...(json.success ? {} : { errorReason: text(json.errorReason) ?? 'settlement_failed' }),
    transaction: text(json.transaction) ?? '',
    network: text(json.network) ?? String(body.paymentRequirements && (body.paymentRequirements as { network?: string }).network),
    ...(text(json.payer) ? { payer: text(json.payer) } : {}),
  };
}
