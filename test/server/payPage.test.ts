import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { afterAll, describe, expect, test } from 'vitest'
import { compressBuild } from '../../build/compress'
import { errorHandler } from '../../server/http/errorHandler'
import { silentLogger } from '../../server/http/logger'
import { devnetWalletRoute } from '../../server/routes/devnetWalletRoute'
import { payPage } from '../../server/routes/payPage'

const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'))
mkdirSync(join(dist, 'assets'))
const style = 'body{margin:0;color:#1a1c1f}'
writeFileSync(join(dist, 'index.html'), `<!doctype html><head><style>${style}</style></head><div id="app"></div><script type="module" src="/assets/boot-abc123.js"></script>`)
const script = `console.log(${JSON.stringify('a payment page '.repeat(20))})`
writeFileSync(join(dist, 'assets', 'boot-abc123.js'), script)
await compressBuild(dist)
afterAll(() => rmSync(dist, { recursive: true, force: true }))

/** The routes as the server mounts them, behind its one error handler. */
function served(options: Parameters<typeof payPage>[0]) {
  const app = new Hono()
  app.onError(errorHandler(silentLogger))
  return app.route('/', payPage(options))
}

const app = served({
  distDir: dist,
  frameAncestors: "'self' https://shop.example",
  connectSources: ['http://127.0.0.1:8545'],
  publicOrigin: () => 'https://pay.example',
})

describe('payPage', () => {
  test('default: serves the page at the share-link path, never cached, with a strict policy', async () => {
    const res = await app.request('/pay/7?token=svc_tk_secret')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<div id="app">')
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    const policy = Object.fromEntries(res.headers.get('content-security-policy')!.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]))
    expect(policy).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self'",
      'connect-src': "'self' http://127.0.0.1:8545",
      'frame-ancestors': "'self' https://shop.example",
    })
    expect(JSON.stringify(policy)).not.toContain('unsafe-inline')
  })

  test("behavior: the page's own inline style is allowed by its hash, and no other style inline", async () => {
    const res = await app.request('/pay/7?token=svc_tk_secret')
    const styleSource = res.headers.get('content-security-policy')!.split('; ').find((directive) => directive.startsWith('style-src '))
    expect(styleSource).toBe(`style-src 'self' 'sha256-${createHash('sha256').update(style).digest('base64')}'`)
  })

  test('behavior: the page goes out compressed in the best encoding the browser accepts', async () => {
    const page = (acceptEncoding: string) => app.request('/pay/7?token=svc_tk_secret', { headers: { 'accept-encoding': acceptEncoding } })
    const plain = await page('identity')
    expect([plain.headers.get('content-encoding'), plain.headers.get('vary'), plain.headers.get('content-type')]).toEqual([null, 'Accept-Encoding', 'text/html; charset=UTF-8'])
    const html = await plain.text()
    const brotli = await page('gzip, br')
    expect(brotli.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(new Uint8Array(await brotli.arrayBuffer())).toString()).toBe(html)
    const gzip = await page('gzip')
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString()).toBe(html)
  })

  test('behavior: hashed assets are cached for good', async () => {
    const res = await app.request('/assets/boot-abc123.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  test('behavior: assets go out in the best encoding the browser accepts, built once, and caches key on it', async () => {
    const res = (acceptEncoding: string) => app.request('/assets/boot-abc123.js', { headers: { 'accept-encoding': acceptEncoding } })
    const brotli = await res('gzip, deflate, br')
    expect([brotli.headers.get('content-encoding'), brotli.headers.get('vary')]).toEqual(['br', 'Accept-Encoding'])
    expect(brotliDecompressSync(new Uint8Array(await brotli.arrayBuffer())).toString()).toBe(script)
    const gzip = await res('br;q=0, gzip')
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString()).toBe(script)
    const plain = await res('identity')
    expect([plain.headers.get('content-encoding'), plain.headers.get('vary'), await plain.text()]).toEqual([null, 'Accept-Encoding', script])
  })

  test('behavior: nothing outside the assets folder is served', async () => {
    for (const path of ['/assets/..%2Findex.html', '/assets/missing-1.js', '/assets/.hidden.js', '/assets/index.html', '/assets/boot-abc123.js.br']) {
      expect((await app.request(path)).status, path).toBe(404)
    }
    expect((await app.request('/pay/abc')).status).toBe(400)
  })

  test('behavior: a browser at the page\'s path with a trailing slash is sent to the page, its query (the token) kept, instead of a JSON 404', async () => {
    const res = await app.request('/pay/7/?token=svc_tk_secret&locale=de-DE', { headers: { accept: 'text/html,application/xhtml+xml' } })
    expect(res.status).toBe(308)
    expect(res.headers.get('location')).toBe('/pay/7?token=svc_tk_secret&locale=de-DE')
    // the address carries the token: the redirect is kept nowhere and sends no referrer
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    const page = await app.request(res.headers.get('location')!, { headers: { accept: 'text/html' } })
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=UTF-8'])
    expect((await app.request('/pay/7/')).headers.get('location')).toBe('/pay/7')
  })

  test('behavior: the page names the parents it may post to: the public origin for self, and the allowed storefronts', async () => {
    const html = await (await app.request('/pay/7?token=svc_tk_secret')).text()
    expect(html).toContain('<meta name="svc-frame-ancestors" content="https://pay.example https://shop.example" />')
  })

  test('behavior: a server whose page is not built answers 503 with a page that says so in the payer\'s words', async () => {
    const unbuilt = served({ distDir: join(dist, 'nothing'), frameAncestors: "'self'", connectSources: [], publicOrigin: () => 'https://pay.example' })
    const res = await unbuilt.request('/pay/1')
    expect(res.status).toBe(503)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toContain('<h1>The invoice cannot be shown right now</h1>')
    expect(html).toContain('Try again in a few minutes.')
  })

  test('behavior: a malformed invoice link answers 400 with a page in the payer\'s language, no JSON and no script', async () => {
    const res = await app.request('/pay/abc', { headers: { 'accept-language': 'de-DE,de;q=0.9' } })
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('content-language')).toBe('de')
    const html = await res.text()
    expect(html).toContain('<h1>Dieser Link ist unvollständig</h1>')
    expect(html).toContain(`<style>${style}</style>`)
    expect(html).not.toContain('<script')
    expect(html).not.toContain('VALIDATION_ERROR')
    // the page's own styles, allowed by the same policy as the page
    expect(res.headers.get('content-security-policy')).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`)
  })
})

describe('devnetWalletRoute', () => {
  test('default: hands out the devnet key and node, uncached', async () => {
    const key = { privateKey: `0x${'ab'.repeat(32)}` as const, rpcUrl: 'http://127.0.0.1:8545' }
    const res = await devnetWalletRoute(key).request('/devnet/wallet')
    expect(await res.json()).toEqual(key)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})
