import { afterEach, describe, expect, test, vi } from 'vitest'
import { warmIntl } from './warmIntl'

/** A worker that answers (or not) the way the test says, recording what the page did with it. */
function fakeWorker({ answers }: { answers: 'message' | 'error' | 'never' }) {
  const seen = { posted: [] as unknown[], terminated: 0, url: '' }
  class FakeWorker {
    onmessage: (() => void) | null = null
    onerror: (() => void) | null = null
    constructor(url: URL) {
      seen.url = String(url)
    }
    postMessage(message: unknown) {
      seen.posted.push(message)
      if (answers === 'message') queueMicrotask(() => this.onmessage?.())
      if (answers === 'error') queueMicrotask(() => this.onerror?.())
    }
    terminate() {
      seen.terminated++
    }
  }
  vi.stubGlobal('Worker', FakeWorker)
  return seen
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('warmIntl', () => {
  test('behavior: the worker formats in the page locale, and is stopped once it has', async () => {
    const seen = fakeWorker({ answers: 'message' })
    await warmIntl('de-CH')
    expect(seen.url).toMatch(/warmIntl\.worker/)
    expect(seen.posted).toEqual(['de-CH'])
    expect(seen.terminated).toBe(1)
  })

  test('behavior: where the browser refuses a worker (a policy, no Worker at all), the page goes on at once', async () => {
    // no timer may run: "at once" means before the timeout that would also settle it
    vi.useFakeTimers()
    vi.stubGlobal(
      'Worker',
      class {
        constructor() {
          throw new DOMException('refused by the content security policy', 'SecurityError')
        }
      },
    )
    await expect(warmIntl('en')).resolves.toBeUndefined()
    vi.stubGlobal('Worker', undefined)
    await expect(warmIntl('en')).resolves.toBeUndefined()
  })

  test('behavior: a worker that fails (its script does not load, or throws) lets the page go on, and is stopped', async () => {
    vi.useFakeTimers()
    const seen = fakeWorker({ answers: 'error' })
    await warmIntl('en')
    expect(seen.terminated).toBe(1)
  })

  test('behavior: a worker that never answers holds the page for the timeout at most, and is stopped', async () => {
    vi.useFakeTimers()
    const seen = fakeWorker({ answers: 'never' })
    let settled = false
    const warming = warmIntl('en', 1_000).then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(999)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await warming
    expect(seen.terminated).toBe(1)
  })
})
