// The probe report as text for a terminal (`rollcall probe <url>`).
import type { ProbeReport } from './prober.ts';

const PRIVATE_HINT = 'Rollcall probes public addresses on ports 80 and 443 only; for a server on your own machine, run with PROBE_ALLOW_PRIVATE=1';

export function formatReport(url: string, r: ProbeReport): string {
  const lines = [
    `probe ${url}`,
    `  kind       ${r.kind}`,
    `  handshake  ${r.handshake}${r.protocol ? ` (${r.protocol})` : ''}${r.latencyMs !== null ? `, ${r.latencyMs} ms` : ''}`,
    `  target     ${r.target}`,
    `  result     ${r.live ? 'would go Live' : `not Live: ${r.reason} - ${r.detail}`}`,
    ...(r.reason === 'blocked_address' ? [`  hint       ${PRIVATE_HINT}`] : []),
    ...(r.name ? [`  name       ${r.name}`] : []),
    ...(r.cardSignature ? [`  signature  ${r.cardSignature.status}: ${r.cardSignature.detail}`] : []),
    '  checks',
    ...r.checks.map((c) => `    ${c.pass ? 'pass' : 'FAIL'}  ${c.id.padEnd(18)} ${c.detail}`),
    `  score      ${r.score}/100`,
    ...Object.entries(r.breakdown).map(([k, v]) => `    ${k.padEnd(13)} ${v}`),
    `  capabilities (${r.capabilities.length})${r.capabilities.length ? `: ${r.capabilities.map((c) => c.name).slice(0, 30).join(', ')}` : ''}`,
  ];
  return lines.join('\n');
}
