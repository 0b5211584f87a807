import type { Page } from 'playwright-core'

/**
 * For expect.poll: `read`, each time after the page's clock is moved on by `stepMs`, so that a wait
 * the page makes of its own (a poll's interval, a grace period, a retry's pause) passes in a few of
 * the test's looks rather than in real seconds, as if the payer had left the tab open that much
 * longer. The clock is Playwright's (page.clock, installed before the page loads, for its whole
 * browser context: its frames too); it ticks as the real one does between the moves. Only what runs
 * in the page moves: its timers, Date and AbortSignal.timeout, each timer due within a step fired
 * (an interval once). The chain's clock, the server's and the test wallet's (driven from the test) do not.
 */
export function movingClock<T>(page: Page, read: () => T | Promise<T>, stepMs = 1_000): () => Promise<T> {
  return async () => {
    await page.clock.fastForward(stepMs)
    return read()
  }
}
