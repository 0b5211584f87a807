import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { gzipSync } from 'node:zlib'
import { BuildError } from './buildError.ts'

export type FileSize = { file: string; bytes: number; gzip: number }
export type ChunkSet = { files: FileSize[]; bytes: number; gzip: number }

/** Strings only WalletConnect's own code contains (its storage key and relay host). */
export const walletConnectMarkers = ['wc@2:', 'relay.walletconnect']

/** A built script and every chunk it imports statically: what a browser fetches before it runs. */
export function staticClosure(distDir: string, entry: string): ChunkSet {
  const seen = new Set<string>()
  const queue = [entry]
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue
    seen.add(file)
    const code = readFileSync(join(distDir, file), 'utf8')
    // minified static imports: `import{a as b}from"./x.js"` and `import"./x.js"`; import() is lazy
    for (const [, path] of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},\s*]+from\s*)?["'`](\.{1,2}\/[^"'`]+)["'`]/g)) {
      queue.push(posix.join(dirname(file), path!))
    }
  }
  const files = [...seen].map((file) => {
    const content = readFileSync(join(distDir, file))
    return { file, bytes: content.length, gzip: gzipSync(content, { level: 9 }).length }
  })
  return { files, bytes: sum(files, 'bytes'), gzip: sum(files, 'gzip') }
}

/** The page's initial JavaScript: the scripts index.html loads, the app and the worker their entry
 * starts once the invoice has painted (src/boot.ts), and what those import statically. */
export function initialScripts(distDir: string): ChunkSet {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8')
  const entries = [...html.matchAll(/<script[^>]*\ssrc="\/([^"]+)"/g)].map((match) => match[1]!)
  const started = entries.flatMap((entry) => [entry, ...startedBy(distDir, entry)])
  const files = new Map(started.flatMap((entry) => staticClosure(distDir, entry).files).map((file) => [file.file, file]))
  const all = [...files.values()]
  return { files: all, bytes: sum(all, 'bytes'), gzip: sum(all, 'gzip') }
}

/** The page's own chunks a built script imports lazily (for the entry: the app, which every payer runs
 * at once) and the workers it starts (`new Worker(new URL('/assets/…'))`), as paths in the dist. */
export function startedBy(distDir: string, script: string): string[] {
  const code = readFileSync(join(distDir, script), 'utf8')
  const imported = [...code.matchAll(/import\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g)].map(([, path]) => posix.join(dirname(script), path!))
  const workers = [...code.matchAll(/new Worker\(\s*new URL\(\s*["'`]\/([^"'`]+)["'`]/g)].map(([, path]) => path!)
  return [...imported, ...workers]
}

/**
 * The JavaScript a browser must run before the invoice is readable: scripts that block rendering
 * (classic scripts without defer or async). The server renders the invoice into the HTML and the
 * page's module scripts run after it has painted, so this is none unless something adds one.
 */
export function renderBlockingScripts(distDir: string): ChunkSet {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8')
  // inline scripts cannot run at all: the page's CSP allows only its own files
  const entries = [...html.matchAll(/<script([^>]*)>/g)]
    .map((match) => match[1]!)
    .filter((attributes) => !/type="module"|\sdefer\b|\sasync\b/.test(attributes))
    .map((attributes) => /\ssrc="\/([^"]+)"/.exec(attributes)?.[1])
    .filter((entry) => entry !== undefined)
  const files = entries.flatMap((entry) => staticClosure(distDir, entry).files)
  return { files, bytes: sum(files, 'bytes'), gzip: sum(files, 'gzip') }
}

/** A lazily imported bundle (`import('/assets/…')` in the page), by the prefix of its entry's name. */
export function lazyBundle(distDir: string, prefix: string): ChunkSet & { entry: string } {
  // imported by the page's initial chunks or by one of its lazy ones (WalletConnect by the wallet stack)
  const initial = readdirSync(join(distDir, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(distDir, 'assets', name), 'utf8'))
    .join('\n')
  // by URL (`/assets/…`, the separately built wallets) or as a chunk of the page's own (`./…`)
  const file = new RegExp(`import\\(\\s*["'\`](?:/assets/|\\./)(${prefix}-[\\w-]+\\.js)["'\`]\\s*\\)`).exec(initial)?.[1]
  const entry = file && `assets/${file}`
  if (!entry) throw new BuildError('BUNDLE_MISSING', `the page imports no ${prefix} bundle: build the page again (npm run build), or check vite.config.ts's separateBundles still names it`)
  return { entry, ...staticClosure(distDir, entry) }
}

export function containsAny(distDir: string, set: ChunkSet, markers: string[]): string[] {
  return set.files.filter((file) => {
    const code = readFileSync(join(distDir, file.file), 'utf8')
    return markers.some((marker) => code.includes(marker))
  }).map((file) => file.file)
}

function sum(files: FileSize[], key: 'bytes' | 'gzip'): number {
  return files.reduce((total, file) => total + file[key], 0)
}
