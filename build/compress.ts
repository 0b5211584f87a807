import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { distDir } from './distDir'

/** The encodings the server negotiates, as file suffixes beside the built file. */
export const precompressed = { br: '.br', gzip: '.gz' } as const

// what browsers fetch from these folders; index.html is rewritten per request and stays plain
const compressible = /\.(js|css|svg|json)$/

/**
 * Writes a brotli and a gzip copy beside every script, style and image in the page's `assets/` and the
 * loader's `embed/`: compressed once, at the highest levels, instead of on every request.
 * Returns how many files it compressed.
 */
export function compressBuild(dir: string): number {
  let count = 0
  for (const folder of ['assets', 'embed']) {
    let names: string[]
    try {
      names = readdirSync(join(dir, folder))
    } catch {
      continue
    }
    for (const name of names.filter((name) => compressible.test(name))) {
      const path = join(dir, folder, name)
      const body = readFileSync(path)
      writeFileSync(path + precompressed.br, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }))
      writeFileSync(path + precompressed.gzip, gzipSync(body, { level: 9 }))
      count++
    }
  }
  return count
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) compressBuild(distDir())
