import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import AxeBuilder from '@axe-core/playwright'
import type { AxeResults, PartialResults, RunOptions } from 'axe-core'
import type { Browser, BrowserContext, Page } from 'playwright-core'

/** WCAG 2.2 A and AA, the level the pay page is held to in every state a payer reaches. */
const wcagAA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']

/** The axe release AxeBuilder itself depends on, as its minified build: AxeBuilder would inject the
 * same code unminified (1.3 MB rather than 0.58 MB) into every document it checks, and a fresh
 * document takes about 60 ms longer to compile that. */
const axeSource = readFileSync(createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js'), 'utf8')

/** The parts of AxeBuilder this helper reaches: its own source and configuration, its options, and
 * the step that joins each frame's partial results. */
type AxeBuilderInside = {
  script(): string
  axeConfigure(): Promise<string>
  option: RunOptions
  finishRun(partials: PartialResults): Promise<AxeResults>
}

/**
 * axe joins the frames' partial results in a blank page, away from anything the page under test
 * defines; the join reads only those results. AxeBuilder opens a new page in the page's context and
 * loads axe into it on every check, a third of a check's time; here one blank page in a
 * context of its own is kept per browser, loaded once, and each check's results are joined there
 * afresh. (A browser context not from a launched browser keeps its own.)
 */
type Owner = Browser | BrowserContext
const finishingPages = new WeakMap<Owner, Promise<Page>>()

function finishingPage(owner: Owner, builder: AxeBuilderInside): Promise<Page> {
  const kept = finishingPages.get(owner)
  if (kept) return kept.then((page) => (page.isClosed() ? openFinishingPage(owner, builder) : page))
  return openFinishingPage(owner, builder)
}

function openFinishingPage(owner: Owner, builder: AxeBuilderInside): Promise<Page> {
  const opened = (async () => {
    const page = await ('newContext' in owner ? (await owner.newContext()).newPage() : owner.newPage())
    await page.evaluate(builder.script())
    await page.evaluate(await builder.axeConfigure())
    return page
  })()
  finishingPages.set(owner, opened)
  // a failed opening is not kept: the next check opens another
  opened.catch(() => finishingPages.delete(owner))
  return opened
}

async function finishInKeptPage(owner: Owner, builder: AxeBuilderInside, partials: PartialResults): Promise<AxeResults> {
  const page = await finishingPage(owner, builder)
  return page.evaluate(
    ({ partials, options }) => (window as unknown as { axe: { finishRun(partials: unknown, options: unknown): Promise<AxeResults> } }).axe.finishRun(JSON.parse(partials), options),
    { partials: JSON.stringify(partials), options: builder.option },
  )
}

/**
 * What axe finds on the page (or only `within` a selector): each violation with its rule, impact and
 * the elements it was found on, so that a failure names what to fix. axe runs in every frame of the
 * page and finishes in a blank page of its own, kept open in the browser for the next check.
 */
export async function accessibilityViolations(page: Page, { within }: { within?: string } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page, axeSource }).withTags(wcagAA)
  const inside = builder as unknown as AxeBuilderInside
  inside.finishRun = (partials) => finishInKeptPage(page.context().browser() ?? page.context(), inside, partials)
  const results = await (within ? builder.include(within) : builder).analyze()
  return results.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}
