import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Plugin } from 'esbuild'

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..')
export const packageDistDir = join(packageDir, 'dist')

/** The package's entries, as `exports` names them, and the platform each runs on. */
export const packageEntries = [
  { entry: 'index', platform: 'browser' },
  { entry: 'react', platform: 'browser' },
  { entry: 'server', platform: 'node' },
] as const

export type PackageEntry = (typeof packageEntries)[number]['entry']

// /react imports the main entry as a module of its own, not a copy: one loadCheckout cache on a page
const mainEntryExternal: Plugin = {
  name: 'main-entry-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/index(\.js)?$/ }, () => ({ path: './index.js', external: true }))
  },
}

/**
 * Builds @svc-checkout/js into `outDir` (the package's dist/ by default; tests build into folders of
 * their own, so that two running at once never delete each other's files): each entry an ES module
 * (its dependencies and React left to the merchant's install), and type declarations beside them.
 * Returns each entry's gzip size.
 */
export async function buildPackage(outDir = packageDistDir): Promise<Record<PackageEntry, number>> {
  rmSync(outDir, { recursive: true, force: true })
  const sizes = {} as Record<PackageEntry, number>
  for (const { entry, platform } of packageEntries) {
    await build({
      entryPoints: [join(packageDir, 'src', `${entry}.ts`)],
      outfile: join(outDir, `${entry}.js`),
      bundle: true,
      format: 'esm',
      platform,
      target: 'es2022',
      external: ['react', 'viem', 'standardwebhooks'],
      plugins: [mainEntryExternal],
      // readable in a merchant's node_modules; their bundler minifies
      minify: false,
      legalComments: 'none',
      logLevel: 'warning',
    })
    sizes[entry] = gzipSync(readFileSync(join(outDir, `${entry}.js`)), { level: 9 }).length
  }
  execFileSync(process.execPath, [join(packageDir, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(packageDir, 'tsconfig.json'), '--outDir', outDir], { stdio: 'inherit' })
  return sizes
}

/**
 * The package as `npm pack` sees it, in a folder of its own: its package.json, README and a fresh
 * build in dist/. Returns the folder. Pack it with `--ignore-scripts`: it holds its build already,
 * and its prepack names this script by a path that is packages/checkout's only.
 */
export async function stagePackage(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true })
  for (const file of ['package.json', 'README.md']) copyFileSync(join(packageDir, file), join(dir, file))
  await buildPackage(join(dir, 'dist'))
  return dir
}

// `npm run build:package`, and the package's prepack: `npm pack` and `npm publish` in packages/checkout
// build dist/ first, so that a tarball never holds a stale or missing build. The sizes go to stderr:
// `npm pack --json` prints its answer on stdout.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await buildPackage()
  process.stderr.write(`@svc-checkout/js: ${Object.entries(sizes).map(([entry, bytes]) => `${entry} ${bytes} B gzip`).join(', ')}\n`)
}
