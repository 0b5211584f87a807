import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

/** Debian's chromium, as CI installs it with apt-get: what Lighthouse measures the page in. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const headlessShell = '/usr/bin/chromium-headless-shell'

/**
 * What the browser tests drive: Debian's chromium-headless-shell when it is installed, the same
 * Chromium build without the desktop browser around it. The browser tests spend most of their CPU
 * in the browser, and took 136 s in it against 208 s in the full chromium on two cores, with the
 * same results; without it, the full chromium.
 */
export const testBrowserPath = process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : chromiumPath)

/** The flags keep the browser off the (closed) network. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(testBrowserPath)) throw new Error(`no browser at ${testBrowserPath}: apt-get install chromium-headless-shell (CI does)`)
  return chromium.launch({
    executablePath: testBrowserPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      // a page the attack tests rewrite in flight comes from no address at all, and Chromium would then
      // refuse its reads of the loopback devnet as a public page reaching into a private network
      '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessRespectPreflightResults',
    ],
  })
}

export const artifactsDir = join(process.cwd(), 'test-results', 'screenshots')

/** Screenshots of the states a payer sees, kept as test artifacts to look at. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(artifactsDir, { recursive: true })
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true })
}
