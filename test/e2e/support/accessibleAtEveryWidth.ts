import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { accessibilityViolations } from './accessibilityViolations'
import { screenshot } from './browser'

const widths = [1280, 390] as const

/**
 * axe against WCAG 2.2 AA at a desktop and a phone width, and no sideways scrolling of the page
 * (WCAG 1.4.10), with a screenshot of each named `<shotPrefix><view>-<width>`; the page is left at
 * the desktop width.
 */
export async function accessibleAtEveryWidth(page: Page, view: string, shotPrefix: string) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 })
    expect(await accessibilityViolations(page), `${view} at ${width} px`).toEqual([])
    // nothing wider than the screen: only a table scrolls sideways, inside its own region
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${view}'s width at ${width} px`).toBeLessThanOrEqual(width)
    await screenshot(page, `${shotPrefix}${view}-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}
