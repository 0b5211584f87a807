import { describe, expect, test } from 'vitest'
import { retryAfterSeconds } from './requestJson'

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-11-22T10:00:00Z')

  test('default: whole seconds', () => {
    expect(retryAfterSeconds('30', now)).toBe(30)
    expect(retryAfterSeconds(null, now)).toBeUndefined()
  })

  test('behavior: an HTTP date becomes the seconds until it, never negative', () => {
    expect(retryAfterSeconds('Sun, 22 Nov 2026 10:01:30 GMT', now)).toBe(90)
    expect(retryAfterSeconds('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0)
    expect(retryAfterSeconds('soon', now)).toBeUndefined()
  })
})
