import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { containsAny, lazyBundle, staticClosure, walletConnectMarkers } from '../../build/pageSize'
import { builtPage } from '../support/builtPage'

// the build `npm test` runs (test/support/buildPage.ts): the pay page in dist/, the dashboard in dist/dashboard/
const dist = await builtPage()
const dashboardAssets = join(dist, 'dashboard', 'assets')
const built = (pattern: RegExp) => readdirSync(dashboardAssets).filter((name) => pattern.test(name))

/** What a merchant's browser downloads before the dashboard can sign in: the script and style its page names
 * (the QR encoder is a chunk of its own, loaded when a share link is shown). */
const budgetGzipBytes = 16_000

describe('the dashboard, weighed', () => {
  test(`behavior: the dashboard's script and style are at most ${budgetGzipBytes} bytes gzip, precompressed beside them`, () => {
    const page = readFileSync(join(dist, 'dashboard', 'index.html'), 'utf8')
    const files = [...page.matchAll(/(?:src|href)="\/dashboard\/assets\/([^"]+)"/g)].map((match) => match[1]!)
    expect(files.filter((name) => name.endsWith('.js'))).toHaveLength(1)
    const gzipped = files.reduce((sum, name) => sum + gzipSync(readFileSync(join(dashboardAssets, name)), { level: 9 }).length, 0)
    expect(gzipped).toBeLessThanOrEqual(budgetGzipBytes)
    for (const name of built(/\.(js|css)$/)) expect(built(/\.(br|gz)$/), name).toEqual(expect.arrayContaining([`${name}.br`, `${name}.gz`]))
  })

  test("behavior: the pay page loads nothing of the dashboard, and the dashboard's own script is none of the pay page's", () => {
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).not.toContain('dashboard')
    // the QR encoder both load lazily is the same module, so the same file; the dashboard's app is not
    const payPageFiles = new Set(readdirSync(join(dist, 'assets')))
    expect(built(/^index-.*\.(js|css)$/).filter((name) => payPageFiles.has(name))).toEqual([])
    // the dashboard's page names only its own assets
    const page = readFileSync(join(dist, 'dashboard', 'index.html'), 'utf8')
    expect([...page.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((match) => match[1]!).every((path) => path.startsWith('/dashboard/assets/'))).toBe(true)
  })

  test("behavior: WalletConnect adds nothing to the dashboard's first paint and has no copy under dist/dashboard: the owner's wallet loads the pay page's own bundle by URL, once picked", () => {
    const dashboard = join(dist, 'dashboard')
    const read = (name: string) => readFileSync(join(dashboardAssets, name), 'utf8')
    const page = readFileSync(join(dashboard, 'index.html'), 'utf8')
    const firstPaint = [...page.matchAll(/<script[^>]*\ssrc="\/dashboard\/([^"]+)"/g)].flatMap((match) => staticClosure(dashboard, match[1]!).files.map((file) => file.file))
    expect(firstPaint.length).toBeGreaterThan(0)
    // the pay page's bundle holds WalletConnect's markers, so their absence from the dashboard means something
    const walletConnect = lazyBundle(dist, 'walletconnect')
    expect(containsAny(dist, walletConnect, walletConnectMarkers).length).toBeGreaterThan(0)
    const scripts = built(/\.js$/)
    expect(scripts.filter((name) => walletConnectMarkers.some((marker) => read(name).includes(marker)))).toEqual([])
    expect(readdirSync(dashboardAssets).filter((name) => name.toLowerCase().includes('walletconnect'))).toEqual([])
    // the owner's wallet, a chunk the first paint does not load, imports exactly the pay page's entry
    const byUrl = /import\(\s*["'`]\/(assets\/walletconnect-[\w-]+\.js)["'`]\s*\)/
    const importers = scripts.flatMap((name) => {
      const imported = byUrl.exec(read(name))?.[1]
      return imported ? [{ name, imported }] : []
    })
    expect(importers).toEqual([{ name: expect.stringMatching(/^ownerWallet-[\w-]+\.js$/), imported: walletConnect.entry }])
    expect(firstPaint).not.toContain(`assets/${importers[0]!.name}`)
  })
})
