import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { buildPackage } from '../../packages/checkout/scripts/buildPackage'

const distDir = mkdtempSync(join(tmpdir(), 'svc-package-size-'))
afterAll(() => rmSync(distDir, { recursive: true, force: true }))
const importsOf = (entry: string) => [...readFileSync(join(distDir, `${entry}.js`), 'utf8').matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]).sort()

test('behavior: @svc-checkout/js stays within its budgets: the browser entry 1.5 KB gzip, /react 1 KB, /server 3 KB, their dependencies apart', async () => {
  const sizes = await buildPackage(distDir)
  // what a merchant's bundle gains for loadCheckout: the loader itself stays on the checkout's origin
  expect(sizes.index).toBeLessThanOrEqual(1536)
  expect(sizes.react).toBeLessThanOrEqual(1024)
  expect(sizes.server).toBeLessThanOrEqual(3 * 1024)
  // React, viem and standardwebhooks are the merchant's install, not copies inside the package; /react
  // shares the browser entry's loadCheckout (one cache per page) instead of carrying its own
  expect(importsOf('index')).toEqual([])
  expect(importsOf('react')).toEqual(['./index.js', 'react'])
  expect(importsOf('server')).toEqual(['standardwebhooks', 'viem'])
})
