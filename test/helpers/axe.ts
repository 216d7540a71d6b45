// axe-core in a page opened by playwright-core: the WCAG 2.0 and 2.1 A and AA rules and axe's best
// practices. The source goes in through the DevTools protocol (page.evaluate), which the pages'
// Content-Security-Policy does not govern: the page is checked under its real policy, and a
// <script> tag would be refused by it.
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/** axe's violations on the page as it is now (injected once per document). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async (tags) => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
    }));
  }, AXE_TAGS);
}

/** Violations as lines a person can act on: rule, impact, help, then each element and why. */
export function describeViolations(where: string, violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => [`${where}: ${v.id} (${v.impact ?? 'n/a'}): ${v.help} <${v.helpUrl}>`, ...v.nodes.map((n) => `    ${n.target}\n      ${n.summary.replace(/\n/g, '\n      ')}`)].join('\n'))
    .join('\n');
}
