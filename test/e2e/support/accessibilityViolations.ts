import AxeBuilder from '@axe-core/playwright'
import type { AxeResults, PartialResults, RunOptions } from 'axe-core'
import type { BrowserContext, Page } from 'playwright-core'

/** WCAG 2.2 A and AA, the level the pay page is held to in every state a payer reaches. */
const wcagAA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']

/** The parts of AxeBuilder this helper reaches: its own source and configuration, its options, and
 * the step that joins each frame's partial results. */
type AxeBuilderInside = {
  script(): string
  axeConfigure(): Promise<string>
  option: RunOptions
  finishRun(partials: PartialResults): Promise<AxeResults>
}

/**
 * axe joins the frames' partial results in a blank page of the page's browser context, away from
 * anything the page under test defines. AxeBuilder opens a new one and loads axe's 1.3 MB into it on
 * every check, a third of a check's time; here each context keeps one such blank page, loaded once,
 * and each check's results are joined there afresh.
 */
const finishingPages = new WeakMap<BrowserContext, Promise<Page>>()

function finishingPage(context: BrowserContext, builder: AxeBuilderInside): Promise<Page> {
  const kept = finishingPages.get(context)
  if (kept) return kept.then((page) => (page.isClosed() ? openFinishingPage(context, builder) : page))
  return openFinishingPage(context, builder)
}

function openFinishingPage(context: BrowserContext, builder: AxeBuilderInside): Promise<Page> {
  const opened = (async () => {
    const page = await context.newPage()
    await page.evaluate(builder.script())
    await page.evaluate(await builder.axeConfigure())
    return page
  })()
  finishingPages.set(context, opened)
  // a failed opening is not kept: the next check opens another
  opened.catch(() => finishingPages.delete(context))
  return opened
}

async function finishInKeptPage(context: BrowserContext, builder: AxeBuilderInside, partials: PartialResults): Promise<AxeResults> {
  const page = await finishingPage(context, builder)
  return page.evaluate(
    ({ partials, options }) => (window as unknown as { axe: { finishRun(partials: unknown, options: unknown): Promise<AxeResults> } }).axe.finishRun(JSON.parse(partials), options),
    { partials: JSON.stringify(partials), options: builder.option },
  )
}

/**
 * What axe finds on the page (or only `within` a selector): each violation with its rule, impact and
 * the elements it was found on, so that a failure names what to fix. axe runs in every frame of the
 * page and finishes in a blank page of the same browser context, kept open there for the next check,
 * so a test that checks gives its page a context of its own.
 */
export async function accessibilityViolations(page: Page, { within }: { within?: string } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(wcagAA)
  const inside = builder as unknown as AxeBuilderInside
  inside.finishRun = (partials) => finishInKeptPage(page.context(), inside, partials)
  const results = await (within ? builder.include(within) : builder).analyze()
  return results.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}
