// @vitest-environment node
import { expect, test } from 'vitest'

test('behavior: importing the loader where there is no window does nothing and does not throw', async () => {
  expect(typeof window).toBe('undefined')
  await expect(import('../../embed/embed')).resolves.toBeDefined()
  expect((globalThis as { SvcCheckout?: unknown }).SvcCheckout).toBeUndefined()
})
