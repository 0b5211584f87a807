import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
export const embedOutDir = join(here, '..', 'dist', 'embed')
export const embedVersion = '1'

export type EmbedManifest = {
  version: string
  /** The loader, named by its content so it can be cached for a year. */
  file: string
  integrity: string
  gzipBytes: number
  bridgeFile: string
  bridgeGzipBytes: number
}

async function bundle(entry: string, format: 'iife' | 'esm', define: Record<string, string> = {}) {
  const result = await build({
    entryPoints: [join(here, entry)],
    bundle: true,
    minify: true,
    format,
    target: 'es2022',
    define,
    write: false,
    legalComments: 'none',
  })
  const code = result.outputFiles[0]!.contents
  const digest = createHash('sha384').update(code).digest()
  return { code, digest, gzipBytes: gzipSync(code, { level: 9 }).length }
}

/** Builds the wallet bridge, then the loader that knows the bridge's content-named file; writes
 * both and a manifest with the loader's SRI hash for merchants' `integrity` attributes. */
export async function buildEmbed(): Promise<EmbedManifest> {
  const bridge = await bundle('hostBridge.ts', 'esm')
  const bridgeFile = `bridge.${bridge.digest.toString('hex').slice(0, 12)}.js`
  const loader = await bundle('embed.ts', 'iife', {
    __EMBED_VERSION__: JSON.stringify(embedVersion),
    __BRIDGE_FILE__: JSON.stringify(bridgeFile),
  })
  const file = `embed.v${embedVersion}.${loader.digest.toString('hex').slice(0, 12)}.js`
  mkdirSync(embedOutDir, { recursive: true })
  writeFileSync(join(embedOutDir, bridgeFile), bridge.code)
  writeFileSync(join(embedOutDir, file), loader.code)
  const manifest: EmbedManifest = {
    version: embedVersion,
    file,
    integrity: `sha384-${loader.digest.toString('base64')}`,
    gzipBytes: loader.gzipBytes,
    bridgeFile,
    bridgeGzipBytes: bridge.gzipBytes,
  }
  writeFileSync(join(embedOutDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await buildEmbed())
