import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readEmbedManifest } from '../../devnet/storefront'
import type { EmbedManifest } from '../../embed/build'
import { loadCheckout } from '../../packages/checkout/src/index'
import { buildPackage } from '../../packages/checkout/scripts/buildPackage'
import { builtPage } from '../support/builtPage'
import { listenOnLoopback } from '../support/loopback'
import { launchChromium } from './support/browser'

// A merchant's page on one origin importing the built package, and a checkout on another serving the
// real loader (the build's embed.js), which can be made to fail as a checkout that is down would.
let browser: Browser
let shop: Server
let checkout: Server
let shopUrl = ''
let checkoutUrl = ''
let checkoutDown = false
// while set, the loader's requests wait for an answer (a checkout that is slow, or hangs)
let checkoutHolds = false
const heldRequests: ServerResponse[] = []
let loader: Buffer
let manifest: EmbedManifest
// a second checkout, on an origin of its own: a page runs one loader
let otherCheckout: Server
let otherCheckoutUrl = ''
const loaderRequests: string[] = []
const packageDistDir = mkdtempSync(join(tmpdir(), 'svc-package-'))

beforeAll(async () => {
  const [dist] = await Promise.all([builtPage(), buildPackage(packageDistDir)])
  const built = readEmbedManifest(dist)
  if (!built) throw new Error('the embed loader is not built')
  manifest = built
  loader = readFileSync(join(dist, 'embed', manifest.file))
  checkout = createServer((request, response) => {
    // the current loader, and the same bytes under their content-named file (pinned with integrity)
    if (request.url !== '/embed.js' && request.url !== `/embed/${manifest.file}`) return void response.writeHead(404).end()
    loaderRequests.push(request.url)
    if (checkoutHolds) return void heldRequests.push(response)
    if (checkoutDown) return void response.writeHead(503).end()
    response.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(loader)
  })
  checkoutUrl = `http://127.0.0.1:${await listenOnLoopback(checkout, 0)}`
  otherCheckout = createServer((request, response) => {
    loaderRequests.push(`other ${request.url}`)
    response.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(loader)
  })
  otherCheckoutUrl = `http://127.0.0.1:${await listenOnLoopback(otherCheckout, 0)}`
  shop = createServer((request, response) => {
    const url = new URL(request.url!, 'http://shop')
    if (url.pathname === '/index.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(packageDistDir, 'index.js')))
    // ?tag=1: the merchant wrote the loader's tag into the page already
    const tag = url.searchParams.get('tag') ? `<script src="${checkoutUrl}/embed.js" async></script>` : ''
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head>${tag}</head><body><div id="pay"></div>
<script type="module">import * as svc from '/index.js'; window.svc = svc; document.body.dataset.ready = '1'</script></body></html>`)
  })
  // localhost, not 127.0.0.1: the shop is an origin of its own
  shopUrl = `http://localhost:${await listenOnLoopback(shop, 0)}`
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([shop, checkout, otherCheckout].map((server) => new Promise((resolve) => server?.close(resolve))))
  rmSync(packageDistDir, { recursive: true, force: true })
})

type Svc = typeof import('../../packages/checkout/src/index')
declare global {
  interface Window {
    svc: Svc
  }
}

/** Answers the held requests: 503 while the checkout is down, the loader otherwise. */
function releaseHeld() {
  checkoutHolds = false
  for (const response of heldRequests.splice(0)) {
    if (checkoutDown) response.writeHead(503).end()
    else response.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(loader)
  }
}

/** `waitUntil: 'domcontentloaded'` for a page whose loader tag is held: its load event waits for it. */
async function shopPage(query = '', waitUntil: 'load' | 'domcontentloaded' = 'load'): Promise<Page> {
  loaderRequests.length = 0
  const page = await browser.newPage()
  await page.goto(`${shopUrl}/${query}`, { waitUntil })
  await expect.poll(() => page.evaluate(() => document.body.dataset.ready)).toBe('1')
  return page
}

/** What every failure's message tells the merchant to check. */
const advice = () =>
  `Check that ${checkoutUrl} is reachable, that your page's Content-Security-Policy allows it in script-src and frame-src, and that an integrity hash matches the file; then call loadCheckout again to retry.`
const loaderTags = (page: Page) => page.evaluate((url) => document.querySelectorAll(`script[src^="${url}/embed"]`).length, checkoutUrl)

describe('loadCheckout', () => {
  test('behavior: without a window (server-side rendering) it resolves null and adds nothing', async () => {
    expect(typeof window).toBe('undefined')
    await expect(loadCheckout(checkoutUrl)).resolves.toBeNull()
  })

  test('behavior: it reuses the loader tag already on the page instead of adding a second one', async () => {
    const page = await shopPage('?tag=1')
    const version = await page.evaluate(async (url) => (await window.svc.loadCheckout(url))?.version, checkoutUrl)
    expect(version).toBe('1')
    expect(await loaderTags(page)).toBe(1)
    expect(loaderRequests).toEqual(['/embed.js'])
    await page.close()
  })

  test('behavior: every call for one checkout origin gets the same promise, and one loader is fetched', async () => {
    const page = await shopPage()
    const same = await page.evaluate(async (url) => {
      const first = window.svc.loadCheckout(url)
      const second = window.svc.loadCheckout(`${url}/some/path`)
      const [a, b] = await Promise.all([first, second])
      return first === second && a === b && a === window.SvcCheckout
    }, checkoutUrl)
    expect(same).toBe(true)
    expect(await loaderTags(page)).toBe(1)
    expect(loaderRequests).toEqual(['/embed.js'])
    // the API it resolves with mounts the checkout's frame
    const frameSrc = await page.evaluate(async (url) => {
      const api = await window.svc.loadCheckout(url)
      api!.mount(document.getElementById('pay')!, { invoiceId: '7', layout: 'compact' })
      return document.querySelector('#pay iframe')!.getAttribute('src')
    }, checkoutUrl)
    expect(new URL(frameSrc!).pathname).toBe('/pay/7')
    expect(new URL(frameSrc!).searchParams.get('layout')).toBe('compact')
    await page.close()
  })

  test('behavior: a failed load rejects with an Error that says what to check, and the next call tries again', async () => {
    checkoutDown = true
    const page = await shopPage()
    const failure = await page.evaluate((url) => window.svc.loadCheckout(url).then(() => 'resolved', (error: Error) => `${error instanceof Error} ${error.message}`), checkoutUrl)
    expect(failure).toBe(
      `true svc-checkout: the loader could not be loaded (${checkoutUrl}/embed.js). Check that ${checkoutUrl} is reachable, that your page's Content-Security-Policy allows it in script-src and frame-src, and that an integrity hash matches the file; then call loadCheckout again to retry.`,
    )
    // the failed tag is gone: it would never load again
    expect(await loaderTags(page)).toBe(0)
    checkoutDown = false
    const version = await page.evaluate(async (url) => (await window.svc.loadCheckout(url))?.version, checkoutUrl)
    expect(version).toBe('1')
    expect(loaderRequests).toEqual(['/embed.js', '/embed.js'])
    expect(await loaderTags(page)).toBe(1)
    await page.close()
  })

  test('behavior: a loader tag on the page that had already failed rejects at once with what to do, and the next call loads with a tag of its own', async () => {
    checkoutDown = true
    // the page has loaded: its loader tag has failed before loadCheckout is called
    const page = await shopPage('?tag=1')
    const failure = await page.evaluate((url) => window.svc.loadCheckout(url).then(() => 'resolved', (error: Error) => `${error instanceof Error} ${error.message}`), checkoutUrl)
    expect(failure).toBe(`true svc-checkout: the loader's script tag on the page failed to load (${checkoutUrl}/embed.js). ${advice()}`)
    checkoutDown = false
    const version = await page.evaluate(async (url) => (await window.svc.loadCheckout(url))?.version, checkoutUrl)
    expect(version).toBe('1')
    expect(loaderRequests).toEqual(['/embed.js', '/embed.js'])
    // the merchant's failed tag stays, marked, beside the one that loaded
    expect(await page.evaluate((url) => Array.from(document.querySelectorAll<HTMLScriptElement>(`script[src^="${url}/embed"]`), (tag) => tag.dataset.svcCheckout), checkoutUrl)).toEqual(['failed', 'loaded'])
    await page.close()
  })

  test('behavior: a loader tag on the page that fails after the call rejects, instead of waiting for a load event that never comes', async () => {
    checkoutHolds = true
    const page = await shopPage('?tag=1', 'domcontentloaded')
    await expect.poll(() => loaderRequests.length).toBe(1)
    await page.evaluate((url) => {
      document.body.dataset.outcome = 'pending'
      window.svc.loadCheckout(url).then(
        () => (document.body.dataset.outcome = 'resolved'),
        (error: Error) => (document.body.dataset.outcome = error.message),
      )
    }, checkoutUrl)
    expect(await page.evaluate(() => document.body.dataset.outcome)).toBe('pending')
    checkoutDown = true
    releaseHeld()
    await expect.poll(() => page.evaluate(() => document.body.dataset.outcome)).toBe(`svc-checkout: the loader could not be loaded (${checkoutUrl}/embed.js). ${advice()}`)
    checkoutDown = false
    expect(await page.evaluate(async (url) => (await window.svc.loadCheckout(url))?.version, checkoutUrl)).toBe('1')
    await page.close()
  })

  test('behavior: a loader that does not arrive within timeoutMs rejects with what to do, and the next call tries again', async () => {
    checkoutHolds = true
    const page = await shopPage()
    await page.evaluate((url) => {
      document.body.dataset.outcome = 'pending'
      window.svc.loadCheckout(url, { timeoutMs: 500 }).then(
        () => (document.body.dataset.outcome = 'resolved'),
        (error: Error) => (document.body.dataset.outcome = error.message),
      )
    }, checkoutUrl)
    await expect.poll(() => page.evaluate(() => document.body.dataset.outcome)).toBe(`svc-checkout: the loader did not load within 500 ms (${checkoutUrl}/embed.js). ${advice()}`)
    expect(await loaderTags(page)).toBe(0)
    // the held request fails (the browser has its answer before the next call: a tag added while the
    // same URL is still being fetched may share that fetch); the checkout answers again
    const answered = new Promise<void>((resolve) => {
      const done = (request: { url(): string }) => request.url() === `${checkoutUrl}/embed.js` && resolve()
      page.on('requestfinished', done)
      page.on('requestfailed', done)
    })
    checkoutDown = true
    releaseHeld()
    await answered
    checkoutDown = false
    expect(await page.evaluate(async (url) => (await window.svc.loadCheckout(url))?.version, checkoutUrl)).toBe('1')
    expect(loaderRequests).toEqual(['/embed.js', '/embed.js'])
    await page.close()
  })

  describe('with integrity', () => {
    const pinned = () => ({ src: `${checkoutUrl}/embed/${manifest.file}`, integrity: manifest.integrity })
    /** The call's outcome, in the page: `resolved <version>` or the rejection's message. */
    const outcome = (page: Page, url: string, options: object) =>
      page.evaluate(({ url, options }) => window.svc.loadCheckout(url, options).then((api) => `resolved ${api?.version}`, (error: Error) => error.message), { url, options })
    const refusal = (other: string) =>
      `svc-checkout: the page already has another loader (${other}), and a page runs one (one window.SvcCheckout): remove it, so that ${pinned().src} with integrity ${pinned().integrity} is the one that loads.`

    test('behavior: the pinned loader loads under its integrity; a wrong hash is refused by the browser and rejects', async () => {
      const page = await shopPage()
      expect(await outcome(page, checkoutUrl, pinned())).toBe('resolved 1')
      expect(await page.evaluate((src) => document.querySelector<HTMLScriptElement>(`script[src="${src}"]`)?.integrity, pinned().src)).toBe(manifest.integrity)
      await page.close()
      const tampered = await shopPage()
      const failed = await outcome(tampered, checkoutUrl, { ...pinned(), integrity: `sha384-${'A'.repeat(64)}` })
      expect(failed).toBe(`svc-checkout: the loader could not be loaded (${pinned().src}). ${advice()}`)
      expect(await tampered.evaluate(() => window.SvcCheckout)).toBeUndefined()
      await tampered.close()
    })

    test('behavior: a window.SvcCheckout some other script defined is refused, never resolved, and the pinned loader is not fetched in its stead', async () => {
      const page = await shopPage()
      await page.evaluate(() => {
        window.SvcCheckout = { version: 'forged', mount: () => ({ on: () => () => {}, destroy() {} }) }
      })
      expect(await outcome(page, checkoutUrl, pinned())).toBe(refusal('window.SvcCheckout, defined by a script'))
      expect(loaderRequests).toEqual([])
      await page.close()
    })

    test('behavior: the checkout\'s loader tag without the pin, already on the page, is refused rather than reused', async () => {
      const page = await shopPage('?tag=1')
      expect(await outcome(page, checkoutUrl, pinned())).toBe(refusal(`${checkoutUrl}/embed.js`))
      expect(loaderRequests).toEqual(['/embed.js'])
      expect(await loaderTags(page)).toBe(1)
      await page.close()
    })
  })

  test('behavior: a second checkout is refused, not answered with the first one\'s loader', async () => {
    const page = await shopPage()
    const answers = await page.evaluate(async ({ a, b }) => {
      const first = await window.svc.loadCheckout(a)
      const second = await window.svc.loadCheckout(b).then(() => 'resolved', (error: Error) => error.message)
      return [first?.version, second]
    }, { a: checkoutUrl, b: otherCheckoutUrl })
    expect(answers).toEqual([
      '1',
      `svc-checkout: the page already has another loader (${checkoutUrl}/embed.js), and a page runs one (one window.SvcCheckout): pass the same baseUrl, src and integrity to every loadCheckout call on the page.`,
    ])
    expect(loaderRequests).toEqual(['/embed.js'])
    // a page whose own tag loaded the first checkout's loader: the second is refused too
    const tagged = await shopPage('?tag=1')
    expect(await tagged.evaluate((b) => window.svc.loadCheckout(b).then(() => 'resolved', (error: Error) => error.message), otherCheckoutUrl)).toBe(
      `svc-checkout: the page already has another loader (${checkoutUrl}/embed.js), and a page runs one (one window.SvcCheckout): remove it, so that ${otherCheckoutUrl}/embed.js is the one that loads.`,
    )
    expect(loaderRequests).toEqual(['/embed.js'])
    await Promise.all([page.close(), tagged.close()])
  })
})
