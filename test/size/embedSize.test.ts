import { expect, test } from 'vitest'
import { buildEmbed } from '../../embed/build'

test('behavior: the script-tag loader stays within 1.5 KB gzip; the wallet bridge loads apart from it', async () => {
  const manifest = await buildEmbed()
  expect(manifest.gzipBytes).toBeLessThanOrEqual(1536)
  expect(manifest.bridgeGzipBytes).toBeGreaterThan(0)
  expect(manifest.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/)
})
