// `rollcall probe <url>`: one probe through the guarded client, now, with no database: the checks
// and the score as text, or with --json what the probe_clean tool answers.
import { loadConfig } from '../config.ts';
import { iso, systemClock } from '../platform/clock.ts';
import { guessKind, normalizeListingUrl } from '../listings/url.ts';
import { createProber } from '../probe/factory.ts';
import { formatReport } from '../probe/format.ts';
import { reportBody } from '../probe/operations.ts';
import { EXIT, emit, interruptible, type Runner } from './command.ts';

export const run: Runner = async (inv) => {
  const config = loadConfig(inv.io.env);
  const url = normalizeListingUrl(inv.positionals[0]!); // a malformed URL is a usage error (invalid_url)
  const prober = createProber(config);
  try {
    const { value: report, interrupted } = await interruptible((stop) =>
      prober.probe(url, { hint: guessKind(url, false), signal: AbortSignal.any([stop, AbortSignal.timeout(config.probeDeadlineS * 1000)]) }),
    );
    if (interrupted) return EXIT.interrupted;
    emit(inv, reportBody({ config }, url, report, iso(systemClock.now())), () => formatReport(url, report));
    return report.live ? EXIT.ok : EXIT.failed;
  } finally {
    await prober.close();
  }
};
