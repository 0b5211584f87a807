import AxeBuilder from '@axe-core/playwright'
import type { Page } from 'playwright-core'

/** WCAG 2.2 A and AA, the level the pay page is held to in every state a payer reaches. */
const wcagAA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']

/**
 * What axe finds on the page (or only `within` a selector): each violation with its rule, impact and
 * the elements it was found on, so that a failure names what to fix. axe finishes its run in a second
 * page of the same browser context, so a test that checks gives its page a context of its own.
 */
export async function accessibilityViolations(page: Page, { within }: { within?: string } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(wcagAA)
  const results = await (within ? builder.include(within) : builder).analyze()
  return results.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}
