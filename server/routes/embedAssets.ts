import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Hono } from 'hono'
import type { EmbedManifest } from '../../embed/build'
import { encodedBody, readEncodedFile, type EncodedFile } from '../http/negotiateEncoding'
import { immutable } from './payPage'

/**
 * The merchant loader: `/embed.js` always answers the current build (cached briefly, so a release
 * reaches every storefront within minutes), `/embed/<content-named file>` is cached for a year, and
 * `/embed/manifest.json` publishes the file name and its SRI hash. Host pages load the kit, the
 * wallet bridge and the check of `paid` as cross-origin module scripts with integrity, hence CORS on the files.
 */
export function embedAssets(dir: string) {
  const app = new Hono()
  const manifestPath = join(dir, 'manifest.json')
  if (!existsSync(manifestPath)) return app
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as EmbedManifest
  // read once: a later build in the same folder cannot change what this server announced
  const files = new Map([manifest.file, manifest.kitFile, manifest.bridgeFile, manifest.paidFile].map((file) => [file, readEncodedFile(join(dir, file))]))
  const script = (file: EncodedFile, acceptEncoding: string | undefined, cacheControl: string) => {
    const { body, headers } = encodedBody(file, acceptEncoding)
    return new Response(body, {
      headers: {
        ...headers,
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': cacheControl,
        'Access-Control-Allow-Origin': '*',
        'Cross-Origin-Resource-Policy': 'cross-origin',
      },
    })
  }

  app.get('/embed.js', (c) => script(files.get(manifest.file)!, c.req.header('accept-encoding'), 'public, max-age=300'))
  app.get('/embed/manifest.json', (c) => {
    c.header('Access-Control-Allow-Origin', '*')
    c.header('Cache-Control', 'no-cache')
    return c.json(manifest)
  })
  app.get('/embed/:file', (c) => {
    const file = files.get(c.req.param('file'))
    return file ? script(file, c.req.header('accept-encoding'), immutable) : c.json({ error: 'NOT_FOUND', code: 'NOT_FOUND', message: 'no such file' }, 404)
  })
  return app
}
