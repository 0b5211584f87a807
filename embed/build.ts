import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { separateBundlesFile } from '../build/separateBundles'

const here = dirname(fileURLToPath(import.meta.url))
const distDir = join(here, '..', 'dist')
export const embedOutDir = join(distDir, 'embed')
export const embedVersion = '1'

export type EmbedManifest = {
  version: string
  /** The loader, named by its content so it can be cached for a year. */
  file: string
  integrity: string
  gzipBytes: number
  bridgeFile: string
  bridgeGzipBytes: number
  /** The inline widget, built with the page (`dist/assets/inline-<hash>.js`). */
  inlineFile: string
}

/** The inline widget's bundle, as the page's build (vite) named it. */
function inlineFile(): string {
  const path = join(distDir, separateBundlesFile)
  if (!existsSync(path)) throw new Error(`${path} is missing: build the page first (\`npm run build\` does, vite before the loader)`)
  const file = (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>).inline
  if (typeof file !== 'string') throw new Error(`${path} names no inline bundle: is src/inline/mountInline.tsx in vite.config.ts's separateBundles?`)
  return file
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

/** Builds the wallet bridge, then the loader that knows the bridge's content-named file and the
 * inline widget's; writes both and a manifest with the loader's SRI hash for merchants' `integrity`
 * attributes. */
export async function buildEmbed(): Promise<EmbedManifest> {
  const bridge = await bundle('hostBridge.ts', 'esm')
  const bridgeFile = `bridge.${bridge.digest.toString('hex').slice(0, 12)}.js`
  const inline = inlineFile()
  const loader = await bundle('embed.ts', 'iife', {
    __EMBED_VERSION__: JSON.stringify(embedVersion),
    __BRIDGE_FILE__: JSON.stringify(bridgeFile),
    __INLINE_FILE__: JSON.stringify(inline),
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
    inlineFile: inline,
  }
  writeFileSync(join(embedOutDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { file, gzipBytes, bridgeGzipBytes } = await buildEmbed()
  console.log(`embed: ${file} ${gzipBytes} B gzip (wallet bridge ${bridgeGzipBytes} B, loaded when needed)`)
}
