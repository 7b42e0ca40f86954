import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's violations on the page as it stands (default rules), one line each: rule, impact, the first nodes. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[]; failureSummary: string }[] }[] }> };
      }
    ).axe;
    const { violations } = await axe.run(document);
    return violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1, 2).join('')}`)
          .join(' | ')}`,
    );
  });
}
