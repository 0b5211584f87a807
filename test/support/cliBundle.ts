import { statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { inject } from 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where a project's workers bundle the command-line tools its tests start (test/support/cliBundlesSetup.ts). */
    cliBundlesDir: string
  }
}

const repo = fileURLToPath(new URL('../..', import.meta.url))

// A module keeps its own address: the tools find the repository's files (the pinned deployment, the
// contracts, the fonts) relative to the module that names them, not to the bundle.
const keepModuleUrls: Plugin = {
  name: 'keep-module-urls',
  setup(context) {
    context.onLoad({ filter: /\.tsx?$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
      loader: path.endsWith('.tsx') ? 'tsx' : 'ts',
    }))
  },
}

type Bundle = { file: string; inputs: Map<string, number> }
const bundles = new Map<string, Promise<Bundle>>()

const unchanged = ({ inputs }: Bundle) => [...inputs].every(([path, mtime]) => statSync(path, { throwIfNoEntry: false })?.mtimeMs === mtime)

async function bundle(script: string): Promise<Bundle> {
  // the packages stay where npm put them, loaded by node as `npm run` loads them; our own code is one file
  const outfile = join(inject('cliBundlesDir'), String(process.pid), script.replace(/\.ts$/, '.mjs'))
  const { metafile } = await build({
    absWorkingDir: repo,
    entryPoints: [script],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // the oldest Node the suite still runs on (docs/testing.md; package.json's floor is 22.12): import
    // attributes (a package's JSON, with { type: 'json' }) are kept
    target: 'node20.19',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
    plugins: [keepModuleUrls],
  })
  const inputs = new Map(Object.keys(metafile.inputs).map((input) => [join(repo, input), statSync(join(repo, input)).mtimeMs]))
  return { file: outfile, inputs }
}

/**
 * One of our command-line tools (`cli/keys.ts`, `server/serve.ts`, …) as one module that node runs
 * without tsx. A tool started through tsx spends about 0.9 CPU-seconds more before it does anything
 * (each of its ~700 modules passes tsx's loader), and the suite starts about forty of them; the
 * behaviour is the same code's. Rebuilt when a source it was built from changes (a test run in watch
 * mode). `runCliWithTsx` keeps proving that each tool starts as its npm script starts it.
 */
export async function bundledCli(script: string): Promise<string> {
  const key = relative(repo, resolve(repo, script))
  const known = bundles.get(key)
  if (known) {
    const ready = await known.catch(() => undefined)
    if (ready && unchanged(ready)) return ready.file
  }
  const next = bundle(key)
  bundles.set(key, next)
  return (await next).file
}
