import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, type Plugin, type Rolldown } from 'vite'
import { confusablesSubset } from './confusablesSubset.ts'
import { BuildError } from './buildError.ts'
import { quietLogs } from './quietLogs.ts'

/** A module imported by URL, built on its own: `define` names the constant holding the URL when the
 * page imports it; the merchant loader finds its bundle in `separateBundlesFile`. */
export type SeparateBundle = {
  entry: string
  define?: string
  name: string
  /** One file, no chunks of its own: a module the merchant loader pins by integrity (a dynamic
   * import() inside it would load a chunk the hash does not cover). */
  selfContained?: boolean
  /** A package this bundle stands in for: every later import() of it (a library's own, as wagmi's
   * WalletConnect connector's) loads this bundle by URL instead of bundling the package again. */
  replaces?: string
}


/** Where each separate bundle's entry landed (`{ name: 'assets/<name>-<hash>.js' }`), written beside
 * index.html: the embed build (embed/build.ts) reads it to give the loader the inline widget's file. */
export const separateBundlesFile = 'separate-bundles.json'

/** Builds each lazily loaded wallet apart from the page and emits its files as assets; the page
 * imports the entry's URL only when the payer picks that wallet. Built with the page, what such a
 * module shares with it (viem) lands in common chunks that the page loads up front, together with
 * everything the module uses of it: with WalletConnect that was 124 KB gzip of initial JavaScript
 * instead of 44, and the devnet wallet alone added 1.6 KB. A separate build gives each its own copy:
 * the payers who pick it load a little more, and the page nothing. Each build sees the page's
 * defines and the URLs of the bundles listed before it (the inline widget imports the wallets'). */
export function separateBundles(bundles: SeparateBundle[]): Plugin {
  const files: Rolldown.OutputChunk[] = []
  const entries: Record<string, string> = {}
  const replaced: Record<string, string> = {}
  // a replaced package resolves to its bundle's URL, left for the browser to load
  const resolveReplaced = (id: string) => (replaced[id] ? { id: replaced[id], external: true } : null)
  return {
    name: 'svc-separate-bundles',
    async config(config, { command }) {
      const define: Record<string, string> = {}
      for (const { entry, define: name, name: fileName, selfContained = false, replaces } of bundles) {
        if (command !== 'build') {
          // the dev server serves the module from source
          if (name) define[name] = JSON.stringify(`/${entry}`)
          continue
        }
        const output = await build({
          configFile: false,
          logLevel: 'warn',
          plugins: [{ name: 'svc-replaced-packages', enforce: 'pre', resolveId: resolveReplaced }, confusablesSubset()],
          define: { ...config.define, ...define, 'process.env.NODE_ENV': JSON.stringify('production') },
          build: {
            write: false,
            target: 'es2022',
            lib: { entry, formats: ['es'] },
            rolldownOptions: {
              onLog: quietLogs,
              treeshake: { moduleSideEffects: 'no-external' },
              // library mode keeps whitespace for a consumer's minifier: these files are shipped as they are
              output: {
                minify: true,
                entryFileNames: `assets/${fileName}-[hash].js`,
                chunkFileNames: `assets/${fileName}-[name]-[hash].js`,
                ...(selfContained ? { codeSplitting: false } : {}),
              },
            },
          },
        })
        const [result] = Array.isArray(output) ? output : [output]
        const chunks = result && 'output' in result ? result.output.filter((file) => file.type === 'chunk') : []
        const main = chunks.find((chunk) => chunk.isEntry)
        if (!main) throw new BuildError('BUNDLE_MISSING', `the separate build of ${entry} produced no entry chunk: check its entry in vite.config.ts's separateBundles`)
        files.push(...chunks)
        entries[fileName] = main.fileName
        if (name) define[name] = JSON.stringify(`/${main.fileName}`)
        if (replaces) replaced[replaces] = `/${main.fileName}`
      }
      return { define }
    },
    resolveId: resolveReplaced,
    generateBundle() {
      for (const file of files) this.emitFile({ type: 'asset', fileName: file.fileName, source: file.code })
      this.emitFile({ type: 'asset', fileName: separateBundlesFile, source: `${JSON.stringify(entries, null, 2)}\n` })
    },
  }
}

/** Where another build's separate bundles landed, read from `separateBundlesFile` in `dir`. */
function emittedBundles(dir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(join(dir, separateBundlesFile), 'utf8')) as Record<string, string>
  } catch {
    return {}
  }
}

/**
 * A second page built after the pay page into the same dist (the dashboard) loads the bundles the
 * pay page already emitted, by URL, rather than building its own copy: each package in `replaces`
 * (`{ '@walletconnect/ethereum-provider': 'walletconnect' }`) resolves to that bundle's entry, left
 * for the browser to load, so its SDK is neither in the second page's files nor in its first paint.
 * The pay page must be built first (`npm run build` and the devnet's page do so).
 */
export function builtSeparateBundles(dir: string, replaces: Record<string, string>): Plugin {
  const replaced: Record<string, string> = {}
  return {
    name: 'svc-built-separate-bundles',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      const entries = emittedBundles(dir)
      for (const [library, name] of Object.entries(replaces)) {
        const entry = entries[name]
        if (!entry) throw new BuildError('BUNDLE_MISSING', `this page loads the pay page's ${name} bundle, which ${join(dir, separateBundlesFile)} does not list: build the pay page into ${dir} first (npm run build builds both, in that order)`)
        replaced[library] = `/${entry}`
      }
    },
    resolveId: (id) => (replaced[id] ? { id: replaced[id], external: true } : null),
  }
}
