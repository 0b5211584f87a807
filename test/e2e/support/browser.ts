import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { testBrowserPath } from '../../support/browserPaths'

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
