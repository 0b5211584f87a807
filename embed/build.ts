import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { builtDeploymentFile, distDir as builtDir } from '../build/distDir'
import { staticClosure } from '../build/pageSize'
import { separateBundlesFile } from '../build/separateBundles'
import { BuildError } from '../build/buildError'

const here = dirname(fileURLToPath(import.meta.url))
const distDir = builtDir()
export const embedOutDir = join(distDir, 'embed')
const embedVersion = '1'

export type EmbedManifest = {
  version: string
  /** The loader, named by its content so it can be cached for a year. */
  file: string
  integrity: string
  gzipBytes: number
  bridgeFile: string
  bridgeGzipBytes: number
  /** The host's check of a frame's `paid` against the pinned chain (embed/hostPaid.ts), loaded at the first `paid`. */
  paidFile: string
  paidGzipBytes: number
  /** The inline widget, built with the page (`dist/assets/inline-<hash>.js`). */
  inlineFile: string
  /** The loader pins the kit by integrity; the kit pins the bridge, the inline widget and the check of `paid`. */
  kitFile: string
  kitIntegrity: string
  bridgeIntegrity: string
  inlineIntegrity: string
  paidIntegrity: string
}

/** The inline widget's bundle, as the page's build (vite) named it. */
function inlineFile(): string {
  const path = join(distDir, separateBundlesFile)
  if (!existsSync(path)) throw new BuildError('PAGE_NOT_BUILT', `${path} is missing: build the page first (\`npm run build\` does, vite before the loader)`)
  const file = (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>).inline
  if (typeof file !== 'string') throw new BuildError('BUNDLE_MISSING', `${path} names no inline bundle: is src/inline/mountInline.tsx in vite.config.ts's separateBundles?`)
  return file
}

// SHA-256: as strong a pin as SHA-384 here, and 21 fewer bytes of incompressible hash in the loader
const sri = (code: Uint8Array) => `sha256-${createHash('sha256').update(code).digest('base64')}`

/** The inline widget's file, which the loader pins by integrity: it must be the whole module. */
function inlineModule(file: string): Buffer {
  const closure = staticClosure(distDir, file)
  if (closure.files.length !== 1) throw new BuildError('BUNDLE_NOT_SELF_CONTAINED', `${file} imports ${closure.files.length - 1} other chunks, which its integrity hash would not cover: build it self-contained (separateBundles' selfContained)`)
  return readFileSync(join(distDir, file))
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
  // an ES module is strict already; the iife loader has nothing that depends on it either way
  const code = new TextEncoder().encode(result.outputFiles[0]!.text.replace(/^"use strict";/, ''))
  const digest = createHash('sha384').update(code).digest()
  return { code, digest, gzipBytes: gzipSync(code, { level: 9 }).length }
}

/** Builds the wallet bridge, then the loader that knows the bridge's content-named file and the
 * inline widget's; writes both and a manifest with the loader's SRI hash for merchants' `integrity`
 * attributes. */
export async function buildEmbed(): Promise<EmbedManifest> {
  // the bridge and the check of `paid` verify against the deployment the page was built with
  const deployment = readFileSync(join(distDir, builtDeploymentFile), 'utf8')
  const bridge = await bundle('hostBridge.ts', 'esm', { __SVC_DEPLOYMENT__: deployment })
  const bridgeFile = `bridge.${bridge.digest.toString('hex').slice(0, 12)}.js`
  const paid = await bundle('hostPaid.ts', 'esm', { __SVC_DEPLOYMENT__: deployment })
  const paidFile = `paid.${paid.digest.toString('hex').slice(0, 12)}.js`
  const inline = inlineFile()
  const bridgeIntegrity = sri(bridge.code)
  const paidIntegrity = sri(paid.code)
  const inlineIntegrity = sri(inlineModule(inline))
  const kit = await bundle('hostKit.ts', 'esm', {
    __BRIDGE_FILE__: JSON.stringify(bridgeFile),
    __INLINE_FILE__: JSON.stringify(inline),
    __PAID_FILE__: JSON.stringify(paidFile),
    __BRIDGE_INTEGRITY__: JSON.stringify(bridgeIntegrity),
    __INLINE_INTEGRITY__: JSON.stringify(inlineIntegrity),
    __PAID_INTEGRITY__: JSON.stringify(paidIntegrity),
  })
  const kitFile = `kit.${kit.digest.toString('hex').slice(0, 12)}.js`
  const kitIntegrity = sri(kit.code)
  const loader = await bundle('embed.ts', 'iife', {
    __EMBED_VERSION__: JSON.stringify(embedVersion),
    __KIT_FILE__: JSON.stringify(kitFile),
    __KIT_INTEGRITY__: JSON.stringify(kitIntegrity),
  })
  const file = `embed.v${embedVersion}.${loader.digest.toString('hex').slice(0, 12)}.js`
  mkdirSync(embedOutDir, { recursive: true })
  writeFileSync(join(embedOutDir, bridgeFile), bridge.code)
  writeFileSync(join(embedOutDir, paidFile), paid.code)
  writeFileSync(join(embedOutDir, kitFile), kit.code)
  writeFileSync(join(embedOutDir, file), loader.code)
  const manifest: EmbedManifest = {
    version: embedVersion,
    file,
    integrity: `sha384-${loader.digest.toString('base64')}`,
    gzipBytes: loader.gzipBytes,
    bridgeFile,
    bridgeGzipBytes: bridge.gzipBytes,
    paidFile,
    paidGzipBytes: paid.gzipBytes,
    inlineFile: inline,
    kitFile,
    kitIntegrity,
    bridgeIntegrity,
    inlineIntegrity,
    paidIntegrity,
  }
  writeFileSync(join(embedOutDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { file, gzipBytes, bridgeGzipBytes, paidGzipBytes } = await buildEmbed()
  console.log(`embed: ${file} ${gzipBytes} B gzip (wallet bridge ${bridgeGzipBytes} B, paid check ${paidGzipBytes} B, loaded when needed)`)
}
