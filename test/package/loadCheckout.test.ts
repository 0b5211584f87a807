// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"enableJavaScriptEvaluation":true}}
import { createServer, type ServerResponse } from 'node:http'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { listenOnLoopback } from '../support/loopback'

// The browser entry against a checkout served over HTTP, in happy-dom, which fetches and runs script
// tags as a browser does. Each test has a checkout of its own (a port of its own: an origin loadCheckout
// has not cached), which answers as the test says: the loader, a 503, or nothing until released.
// test/e2e/loadCheckout.e2e.test.ts does the same in chromium against the real loader.

const loaderJs = "window.SvcCheckout = { version: 'test', mount() { throw new Error('not in this test') } }"
type Answer = 'loader' | 'down' | 'hold'

// a page runs one loader, which loadCheckout remembers for the page: each test is a page of its own
let loadCheckout: typeof import('../../packages/checkout/src/index').loadCheckout
beforeEach(async () => {
  vi.resetModules()
  ;({ loadCheckout } = await import('../../packages/checkout/src/index'))
})

const servers: { close(): void }[] = []
afterEach(() => {
  delete window.SvcCheckout
  for (const script of Array.from(document.querySelectorAll('script'))) script.remove()
  for (const server of servers.splice(0)) server.close()
  Reflect.deleteProperty(document, 'readyState')
})

async function checkout(initially: Answer) {
  let answer = initially
  const held: ServerResponse[] = []
  const requests: string[] = []
  const send = (response: ServerResponse) => {
    if (answer === 'down') return void response.writeHead(503).end()
    response.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(loaderJs)
  }
  const server = createServer((request, response) => {
    requests.push(request.url!)
    if (answer === 'hold') held.push(response)
    else send(response)
  })
  const url = `http://127.0.0.1:${await listenOnLoopback(server, 0)}`
  servers.push({ close: () => (held.forEach((response) => response.destroy()), server.closeAllConnections(), server.close()) })
  return {
    url,
    requests,
    /** Answers from now on (and the requests held so far) with `next`. */
    answer(next: Answer) {
      answer = next
      if (next !== 'hold') held.splice(0).forEach(send)
    },
  }
}

/** The tag a merchant writes into the page, and what became of it. */
function merchantTag(src: string) {
  const tag = document.createElement('script')
  const outcome = { event: '' }
  tag.addEventListener('load', () => (outcome.event = 'load'))
  tag.addEventListener('error', () => (outcome.event = 'error'))
  tag.src = src
  tag.async = true
  document.head.appendChild(tag)
  return { tag, outcome }
}

/** The promise's outcome once it has one, for expect.poll: `resolved <version>` or `rejected <message>`. */
function watch(promise: Promise<{ version: string } | null>) {
  const seen = { outcome: 'pending' }
  promise.then(
    (api) => (seen.outcome = `resolved ${api?.version}`),
    (error: Error) => (seen.outcome = `rejected ${error instanceof Error} ${error.message}`),
  )
  return seen
}

const loaderTags = (url: string) => Array.from(document.querySelectorAll<HTMLScriptElement>('script')).filter((script) => script.src.startsWith(url))
const advice = (url: string) =>
  `Check that ${url} is reachable, that your page's Content-Security-Policy allows it in script-src and frame-src, and that an integrity hash matches the file; then call loadCheckout again to retry.`

/** The checkout serves its loader again: the next call (after a failure, forgotten) loads it. */
async function nextCallLoads(server: Awaited<ReturnType<typeof checkout>>) {
  server.answer('loader')
  const retried = watch(loadCheckout(server.url))
  await expect.poll(() => retried.outcome).toBe('resolved test')
}

describe('loadCheckout with a loader tag already on the page', () => {
  test('behavior: a tag that failed before the call (the page loaded without it) rejects at once with what to do, and the next call loads with a fresh tag', async () => {
    const server = await checkout('down')
    const merchant = merchantTag(`${server.url}/embed.js`)
    await expect.poll(() => merchant.outcome.event).toBe('error')
    expect(document.readyState).toBe('complete')

    const failed = watch(loadCheckout(server.url))
    await expect.poll(() => failed.outcome).toBe(`rejected true svc-checkout: the loader's script tag on the page failed to load (${server.url}/embed.js). ${advice(server.url)}`)
    // the merchant's tag stays where they wrote it, marked: it never loads again
    expect(merchant.tag.isConnected).toBe(true)
    expect(merchant.tag.dataset.svcCheckout).toBe('failed')

    await nextCallLoads(server)
    expect(server.requests).toEqual(['/embed.js', '/embed.js'])
    expect(loaderTags(server.url).map((tag) => tag.dataset.svcCheckout)).toEqual(['failed', 'loaded'])
  })

  test('behavior: a tag that fails after the call rejects, instead of waiting for a load event that never comes', async () => {
    const server = await checkout('hold')
    // the page is still loading, as it is while one of its scripts is
    Object.defineProperty(document, 'readyState', { value: 'interactive', configurable: true })
    merchantTag(`${server.url}/embed.js`)
    await expect.poll(() => server.requests.length).toBe(1)

    const failed = watch(loadCheckout(server.url))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(failed.outcome).toBe('pending')
    server.answer('down')
    await expect.poll(() => failed.outcome).toBe(`rejected true svc-checkout: the loader could not be loaded (${server.url}/embed.js). ${advice(server.url)}`)

    // forgotten: the next call tries again, with a tag of its own beside the failed one
    await nextCallLoads(server)
    expect(loaderTags(server.url)).toHaveLength(2)
  })

  test('behavior: a tag that failed before a call made while the page still loads rejects once the page has loaded', async () => {
    const server = await checkout('down')
    Object.defineProperty(document, 'readyState', { value: 'interactive', configurable: true })
    const merchant = merchantTag(`${server.url}/embed.js`)
    await expect.poll(() => merchant.outcome.event).toBe('error')

    const failed = watch(loadCheckout(server.url))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(failed.outcome).toBe('pending')
    // the page's load event, which waits for every script on the page: the tag's own has passed
    Object.defineProperty(document, 'readyState', { value: 'complete', configurable: true })
    window.dispatchEvent(new Event('load'))
    await expect.poll(() => failed.outcome).toBe(`rejected true svc-checkout: the loader's script tag on the page failed to load (${server.url}/embed.js). ${advice(server.url)}`)
  })

  test('behavior: a tag that loaded before the call resolves with its SvcCheckout, without a second tag', async () => {
    const server = await checkout('loader')
    const merchant = merchantTag(`${server.url}/embed.js`)
    await expect.poll(() => merchant.outcome.event).toBe('load')
    const loaded = watch(loadCheckout(server.url))
    await expect.poll(() => loaded.outcome).toBe('resolved test')
    expect(loaderTags(server.url)).toHaveLength(1)
    expect(server.requests).toEqual(['/embed.js'])
  })
})

describe('loadCheckout waiting for the loader', () => {
  test('behavior: a loader that does not arrive within timeoutMs rejects with what to do, its tag removed, and the next call tries again', async () => {
    const server = await checkout('hold')
    const failed = watch(loadCheckout(server.url, { timeoutMs: 300 }))
    await expect.poll(() => server.requests.length).toBe(1)
    await expect.poll(() => failed.outcome).toBe(`rejected true svc-checkout: the loader did not load within 300 ms (${server.url}/embed.js). ${advice(server.url)}`)
    expect(loaderTags(server.url)).toHaveLength(0)

    await nextCallLoads(server)
    expect(loaderTags(server.url)).toHaveLength(1)
  })

  test('behavior: without timeoutMs a load is given 10 seconds', async () => {
    const server = await checkout('hold')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const failed = watch(loadCheckout(server.url))
      await vi.advanceTimersByTimeAsync(9_999)
      expect(failed.outcome).toBe('pending')
      await vi.advanceTimersByTimeAsync(1)
      await expect.poll(() => failed.outcome).toBe(`rejected true svc-checkout: the loader did not load within 10000 ms (${server.url}/embed.js). ${advice(server.url)}`)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('loadCheckout keeps its integrity pin and its checkout', () => {
  const integrity = `sha384-${'A'.repeat(64)}`
  const pinnedSrc = (url: string) => `${url}/embed/embed.v1.0123456789ab.js`
  const refusal = (other: string, fix: string) => `rejected true svc-checkout: the page already has another loader (${other}), and a page runs one (one window.SvcCheckout): ${fix}.`

  test('behavior: with integrity, a window.SvcCheckout already on the page is not taken: refused, with what to do, and nothing added', async () => {
    const server = await checkout('loader')
    const bare = { version: 'not pinned', mount: () => ({}) as never }
    window.SvcCheckout = bare
    const src = pinnedSrc(server.url)
    const refused = watch(loadCheckout(server.url, { src, integrity }))
    await expect.poll(() => refused.outcome).toBe(refusal('window.SvcCheckout, defined by a script', `remove it, so that ${src} with integrity ${integrity} is the one that loads`))
    expect(loaderTags(server.url)).toHaveLength(0)
    expect(server.requests).toEqual([])
    expect(window.SvcCheckout).toBe(bare)
  })

  test('behavior: with integrity, the checkout\'s loader tag without it is not reused, loaded or still loading: refused, with what to do', async () => {
    const server = await checkout('loader')
    const merchant = merchantTag(`${server.url}/embed.js`)
    await expect.poll(() => merchant.outcome.event).toBe('load')
    const src = pinnedSrc(server.url)
    const fix = `remove it, so that ${src} with integrity ${integrity} is the one that loads`
    const loaded = watch(loadCheckout(server.url, { src, integrity }))
    await expect.poll(() => loaded.outcome).toBe(refusal(`${server.url}/embed.js`, fix))

    // still loading: whichever runs first would define the global the pinned one reuses
    delete window.SvcCheckout
    merchant.tag.remove()
    server.answer('hold')
    Object.defineProperty(document, 'readyState', { value: 'interactive', configurable: true })
    merchantTag(`${server.url}/embed.js`)
    await expect.poll(() => server.requests.length).toBe(2)
    const loading = watch(loadCheckout(server.url, { src, integrity }))
    await expect.poll(() => loading.outcome).toBe(refusal(`${server.url}/embed.js`, fix))
    expect(loaderTags(server.url)).toHaveLength(1)
  })

  test('behavior: with integrity, the merchant\'s tag with exactly that src and integrity is reused; without one on the page, the tag added carries it', async () => {
    const server = await checkout('loader')
    const src = pinnedSrc(server.url)
    const merchant = merchantTag(src)
    merchant.tag.integrity = integrity
    await expect.poll(() => merchant.outcome.event).toBe('load')
    const loaded = watch(loadCheckout(server.url, { src, integrity }))
    await expect.poll(() => loaded.outcome).toBe('resolved test')
    expect(loaderTags(server.url)).toEqual([merchant.tag])

    vi.resetModules()
    ;({ loadCheckout } = await import('../../packages/checkout/src/index'))
    merchant.tag.remove()
    delete window.SvcCheckout
    const added = watch(loadCheckout(server.url, { src, integrity }))
    await expect.poll(() => added.outcome).toBe('resolved test')
    const [tag] = loaderTags(server.url)
    expect([tag?.src, tag?.integrity, tag?.crossOrigin]).toEqual([src, integrity, 'anonymous'])
  })

  test('behavior: one promise per loader and integrity; another checkout, or the same one with another integrity, is refused rather than answered with the page\'s loader', async () => {
    const [a, b] = await Promise.all([checkout('loader'), checkout('loader')])
    const first = loadCheckout(a.url)
    expect(loadCheckout(`${a.url}/any/path`)).toBe(first)
    const loaded = watch(first)
    await expect.poll(() => loaded.outcome).toBe('resolved test')
    const fix = 'pass the same baseUrl, src and integrity to every loadCheckout call on the page'
    const otherCheckout = watch(loadCheckout(b.url))
    await expect.poll(() => otherCheckout.outcome).toBe(refusal(`${a.url}/embed.js`, fix))
    const pinned = watch(loadCheckout(a.url, { src: `${a.url}/embed.js`, integrity }))
    await expect.poll(() => pinned.outcome).toBe(refusal(`${a.url}/embed.js`, fix))
    expect(b.requests).toEqual([])
    expect(a.requests).toEqual(['/embed.js'])
  })

  test('behavior: a loader another checkout\'s tag defined does not answer for this checkout', async () => {
    const [a, b] = await Promise.all([checkout('loader'), checkout('loader')])
    const merchant = merchantTag(`${a.url}/embed.js`)
    await expect.poll(() => merchant.outcome.event).toBe('load')
    const refused = watch(loadCheckout(b.url))
    await expect.poll(() => refused.outcome).toBe(refusal(`${a.url}/embed.js`, `remove it, so that ${b.url}/embed.js is the one that loads`))
    expect(b.requests).toEqual([])
    // this checkout's own call still gets it
    const own = watch(loadCheckout(a.url))
    await expect.poll(() => own.outcome).toBe('resolved test')
  })
})
