// The probe report as text for a terminal (`rollcall probe <url>`).
import type { ProbeReport } from './prober.ts';

export function formatReport(url: string, r: ProbeReport): string {
  const lines = [
    `probe ${url}`,
    `  kind       ${r.kind}`,
    `  handshake  ${r.handshake}${r.protocol ? ` (${r.protocol})` : ''}${r.latencyMs !== null ? `, ${r.latencyMs} ms` : ''}`,
    `  target     ${r.target}`,
    `  result     ${r.live ? 'would go Live' : `not Live: ${r.reason} - ${r.detail}`}`,
    ...(r.name ? [`  name       ${r.name}`] : []),
    '  checks',
    ...r.checks.map((c) => `    ${c.pass ? 'pass' : 'FAIL'}  ${c.id.padEnd(18)} ${c.detail}`),
    `  score      ${r.score}/100`,
    ...Object.entries(r.breakdown).map(([k, v]) => `    ${k.padEnd(13)} ${v}`),
    `  capabilities (${r.capabilities.length})${r.capabilities.length ? `: ${r.capabilities.map((c) => c.name).slice(0, 30).join(', ')}` : ''}`,
  ];
  return lines.join('\n');
}
