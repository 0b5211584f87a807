import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { accessibilityViolations } from './support/accessibilityViolations'
import { launchChromium } from './support/browser'

/**
 * The browser tests' axe check itself, on pages of its own served on loopback: it finds what axe
 * finds in the page and inside a frame of another origin, check after check and context after
 * context, though the blank page it joins the frames' results in is opened once per browser.
 */

let browser: Browser
const servers: Server[] = []

/** A loopback server answering every path with `html`; its origin. */
async function serve(html: (origin: string) => string): Promise<string> {
  const server = createServer((_request, response) => {
    const { port } = server.address() as AddressInfo
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(`http://127.0.0.1:${port}`))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const page = (body: string) => `<!doctype html><html lang="en"><head><title>Page</title></head><body><main><h1>Page</h1>${body}</main></body></html>`
let host: string
let clean: string

beforeAll(async () => {
  browser = await launchChromium()
  // the frame's origin differs from the host's by its port
  const frame = await serve(() => page('<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="40" height="40">'))
  host = await serve(() => page(`<iframe title="Shop's checkout" src="${frame}/"></iframe>`))
  clean = await serve(() => page('<p>Nothing wrong here.</p>'))
}, 60_000)
afterAll(async () => {
  await browser?.close()
  for (const server of servers) server.close()
})

describe("the browser tests' accessibility check", () => {
  test('behavior: an image without a text alternative inside a frame of another origin is found, in each check of a context and in another context, and a clean page has nothing', async () => {
    const imageInFrame = expect.stringMatching(/^image-alt \(critical\): Images must have alternative text at iframe img$/)
    for (const round of ['first', 'second']) {
      const context = await browser.newContext()
      const tab = await context.newPage()
      await tab.goto(`${host}/`)
      await tab.frameLocator('iframe').locator('img').waitFor()
      expect(await accessibilityViolations(tab), `${round} context`).toEqual([imageInFrame])
      expect(await accessibilityViolations(tab), `${round} context, again`).toEqual([imageInFrame])
      await tab.goto(`${clean}/`)
      expect(await accessibilityViolations(tab), `${round} context, clean page`).toEqual([])
      await context.close()
    }
  })
})
