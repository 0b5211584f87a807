import { readdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { distDir } from './distDir'

/** The encodings the server negotiates, as file suffixes beside the built file. */
export const precompressed = { br: '.br', gzip: '.gz' } as const

// what browsers fetch from these folders; index.html is rewritten per request and stays plain
const compressible = /\.(js|css|svg|json)$/

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/**
 * Writes a brotli and a gzip copy beside every script, style and image in the page's `assets/` and the
 * loader's `embed/`: compressed once, at the highest levels, instead of on every request. The files are
 * compressed side by side on libuv's threads (brotli at level 11 is most of a build's time otherwise:
 * 4.2 s one after another on two cores). Resolves with how many files it compressed.
 */
export async function compressBuild(dir: string): Promise<number> {
  const paths = ['assets', 'embed'].flatMap((folder) => {
    try {
      return readdirSync(join(dir, folder))
        .filter((name) => compressible.test(name))
        .map((name) => join(dir, folder, name))
    } catch {
      return []
    }
  })
  await Promise.all(
    paths.map(async (path) => {
      const body = await readFile(path)
      const [br, gz] = await Promise.all([
        brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        gzipped(body, { level: 9 }),
      ])
      await Promise.all([writeFile(path + precompressed.br, br), writeFile(path + precompressed.gzip, gz)])
    }),
  )
  return paths.length
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await compressBuild(distDir())
