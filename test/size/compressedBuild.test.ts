import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, test } from 'vitest'
import { initialScripts } from '../../build/pageSize'
import type { EmbedManifest } from '../../embed/build'
import { embedAssets } from '../../server/routes/embedAssets'
import { payPage } from '../../server/routes/payPage'
import { builtPage } from '../support/builtPage'

// the build `npm test` runs (test/support/buildPage.ts), served as the server serves it
const dist = await builtPage()
const app = new Hono()
  .route('/', payPage({ distDir: dist, frameAncestors: "'self'", connectSources: [], publicOrigin: () => 'http://127.0.0.1' }))
  .route('/', embedAssets(join(dist, 'embed')))
const manifest = JSON.parse(readFileSync(join(dist, 'embed', 'manifest.json'), 'utf8')) as EmbedManifest
const scripts = readdirSync(join(dist, 'assets')).filter((name) => /\.(js|css)$/.test(name))
const decoders = { br: brotliDecompressSync, gzip: gunzipSync }

describe('the built page and loader, compressed', () => {
  test.each(['br', 'gzip'] as const)('behavior: every script and style served as %s decodes to the built file byte for byte', async (encoding) => {
    const paths = [...scripts.map((name) => [`/assets/${name}`, join(dist, 'assets', name)]), ...[manifest.file, manifest.kitFile, manifest.bridgeFile, manifest.paidFile].map((name) => [`/embed/${name}`, join(dist, 'embed', name)])]
    expect(paths.length).toBeGreaterThan(5)
    for (const [path, file] of paths) {
      const res = await app.request(path!, { headers: { 'accept-encoding': encoding } })
      expect(res.headers.get('content-encoding'), path).toBe(encoding)
      const decoded = decoders[encoding](new Uint8Array(await res.arrayBuffer()))
      expect(decoded.equals(readFileSync(file!)), path).toBe(true)
    }
  })

  test('behavior: the loader keeps its short cache, compressed like the rest', async () => {
    const res = await app.request('/embed.js', { headers: { 'accept-encoding': 'br' } })
    expect([res.headers.get('cache-control'), res.headers.get('content-encoding'), res.headers.get('vary')]).toEqual(['public, max-age=300', 'br', 'Accept-Encoding'])
    expect(brotliDecompressSync(new Uint8Array(await res.arrayBuffer())).equals(readFileSync(join(dist, 'embed', manifest.file)))).toBe(true)
  })

  test("behavior: the page's largest startup script is at most a third of its size on the wire", async () => {
    const largest = initialScripts(dist).files.sort((a, b) => b.bytes - a.bytes)[0]!
    const res = await app.request(`/${largest.file}`, { headers: { 'accept-encoding': 'br, gzip' } })
    const wire = (await res.arrayBuffer()).byteLength
    expect(wire).toBeLessThan(largest.bytes / 3)
  })
})
