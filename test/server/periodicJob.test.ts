import { afterEach, describe, expect, test, vi } from 'vitest'
import { jsonLogger } from '../../server/http/logger'
import { startPeriodicJob } from '../../server/ops/periodicJob'

describe('startPeriodicJob', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  test('behavior: a pass still going when the next is due is not joined by a second, and the stop waits for it and starts no other', async () => {
    vi.useFakeTimers()
    let passes = 0
    let release: () => void = () => {}
    const stop = startPeriodicJob(
      () => {
        passes += 1
        return new Promise<void>((resolve) => (release = resolve))
      },
      { everyMs: 1_000, logger: jsonLogger(() => {}), failure: 'failed' },
    )
    await vi.advanceTimersByTimeAsync(5_000)
    expect(passes).toBe(1)
    release()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(passes).toBe(2)
    let stopped = false
    const stopping = stop().then(() => (stopped = true))
    await vi.advanceTimersByTimeAsync(0)
    // the second pass is still under way: the stop has not returned
    expect(stopped).toBe(false)
    release()
    await stopping
    await vi.advanceTimersByTimeAsync(5_000)
    expect(passes).toBe(2)
  })
})
