import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { containsAny, initialScripts, lazyBundle, renderBlockingScripts, startedBy, staticClosure, walletConnectMarkers } from '../../build/pageSize'
import { builtPage } from '../support/builtPage'

/** The budgets, gzip (level 9, in bytes): the JavaScript a payer waits for before the invoice is
 * readable (the server renders it into the HTML), and everything up to a connected wallet and the Pay
 * button. */
const readableBudget = 15_000
const payButtonBudget = 70_000
/** The styles are in every page's HTML (build/inlineStylesheet.ts): a payer downloads them each time. */
const inlineStyleBudget = 4_000

// the page as `npm run build` ships it (test/support/buildPage.ts)
const outDir = await builtPage()

describe('the built pay page', () => {
  test('behavior: the invoice is readable before 15 KB gzip of JavaScript has run: no script blocks the first paint', () => {
    expect(renderBlockingScripts(outDir).gzip).toBeLessThanOrEqual(readableBudget)
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toMatch(/<script type="module"[^>]* src="\/assets\/boot-[\w-]+\.js"><\/script>/)
  })

  test('behavior: the page starts one script before its first paint, which imports nothing statically: on a phone network no second connection races the paint', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8')
    const started = [...html.matchAll(/<(?:script|link rel="modulepreload")[^>]*(?:src|href)="\/([^"]+\.js)"/g)].map(([, file]) => file!)
    expect(started).toEqual([expect.stringMatching(/^assets\/boot-[\w-]+\.js$/)])
    expect(staticClosure(outDir, started[0]!).files.map((file) => file.file)).toEqual(started)
  })

  test('behavior: with nothing preloaded by the bundler, no chunk the page loads waits on a request that starts only once it has arrived', () => {
    const initial = initialScripts(outDir).files.map((file) => file.file)
    const boot = initial.find((file) => /^assets\/boot-/.test(file))!
    // what the page runs at once is all asked for by boot.ts itself, none found in another chunk first
    const asked = startedBy(outDir, boot)
    expect(initial.filter((file) => file !== boot && !asked.includes(file))).toEqual([])
    // what it loads later (the verifiers, another locale's strings): only what it already has
    const later = initial.flatMap((file) => startedBy(outDir, file))
    expect(later.filter((file) => !initial.includes(file)).length).toBeGreaterThan(0)
    for (const file of later) expect(staticClosure(outDir, file).files.map((dep) => dep.file).filter((dep) => dep !== file && !initial.includes(dep))).toEqual([])
  })

  test('behavior: every script and module preload is fetched at low priority, after what the first paint needs', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8')
    const fetches = [...html.matchAll(/<(script|link rel="modulepreload")[^>]*>/g)].map(([tag]) => tag)
    expect(fetches.length).toBeGreaterThan(0)
    expect(fetches.filter((tag) => !tag.includes('fetchpriority="low"'))).toEqual([])
  })

  test('behavior: the styles come inline with the HTML, within 4 KB gzip: the invoice paints without another request', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8')
    expect(html).not.toMatch(/<link[^>]*rel="stylesheet"/)
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, css]) => css!)
    expect(styles).toHaveLength(1)
    expect(styles[0]).toContain('--svc-color-text')
    expect(gzipSync(styles[0]!, { level: 9 }).length).toBeLessThanOrEqual(inlineStyleBudget)
    expect(readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.css'))).toEqual([])
  })

  test('behavior: everything up to a connected wallet and the Pay button, @wagmi/core included, stays within 70 KB gzip', () => {
    const initial = initialScripts(outDir)
    const walletStack = lazyBundle(outDir, 'wallet-stack')
    expect(containsAny(outDir, walletStack, ['watchConnection', 'eip6963:requestProvider'])).not.toEqual([])
    // the API and its schemas are a chunk apart from the app, which boot.ts starts beside it: counted
    expect(containsAny(outDir, initial, ['safeParse'])).not.toEqual([])
    expect(initial.gzip + walletStack.gzip).toBeLessThanOrEqual(payButtonBudget)
  })

  test('behavior: WalletConnect adds nothing to the page or the wallet stack, and loads only once picked', () => {
    const upToPay = [initialScripts(outDir), lazyBundle(outDir, 'wallet-stack')]
    const walletConnect = lazyBundle(outDir, 'walletconnect')
    // the markers are WalletConnect's: found in its bundle, so their absence from the page means something
    expect(containsAny(outDir, walletConnect, walletConnectMarkers).length).toBeGreaterThan(0)
    for (const set of upToPay) {
      expect(containsAny(outDir, set, walletConnectMarkers)).toEqual([])
      const files = new Set(set.files.map((file) => file.file))
      expect(walletConnect.files.filter((file) => files.has(file.file))).toEqual([])
    }
  })

  test('behavior: the verifiers (userOpHash, callData and permit checks) load at the first payment step, not with the invoice', () => {
    const initial = initialScripts(outDir)
    const verifiers = lazyBundle(outDir, 'verifiers')
    const initialFiles = new Set(initial.files.map((file) => file.file))
    // the verifiers' own chunk is not fetched with the page; what it shares with the page (ABI code) is
    expect(initialFiles.has(verifiers.entry)).toBe(false)
    expect(containsAny(outDir, initial, ['does not match the fingerprint you would sign', 'The sponsorship never expires'])).toEqual([])
  })

  test('behavior: the devnet wallet is its own bundle, outside the initial chunks', () => {
    const initialFiles = new Set(initialScripts(outDir).files.map((file) => file.file))
    const devnet = lazyBundle(outDir, 'devnet-wallet')
    expect(devnet.files.filter((file) => initialFiles.has(file.file))).toEqual([])
  })
})
