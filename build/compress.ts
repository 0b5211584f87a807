import { createHash, randomUUID } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, brotliDecompressSync, constants, gunzipSync, gzip } from 'node:zlib'
import { distDir } from './distDir'

/** The encodings the server negotiates, as file suffixes beside the built file. */
export const precompressed = { br: '.br', gzip: '.gz' } as const

// what browsers fetch from these folders; index.html is rewritten per request and stays plain
const compressible = /\.(js|css|svg|json)$/

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/** Where compressed copies are kept by their content's hash, and how long an unused one stays. */
export const defaultCompressCache = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'svc-compressed')
const unusedFor = 7 * 24 * 3600_000
// in the key: a change of levels must not reuse copies made at the old ones
const levels = 'br11-gz9'

/**
 * Writes a brotli and a gzip copy beside every script, style and image in the page's `assets/`, the
 * loader's `embed/` and the merchant dashboard's `dashboard/assets/`: compressed once, at the highest
 * levels, instead of on every request. The files are compressed side by side on libuv's threads (brotli
 * at level 11 is most of a build's time otherwise: 4.2 s one after another on two cores), and each copy
 * is kept in `cache` under its content's hash: most of a page's bytes are the wallet libraries,
 * unchanged from one build to the next (`npm start` builds every time, and a devnet on another port
 * builds a page of its own), so only the files that changed are compressed again. Resolves with how
 * many files it compressed and how many it reused.
 */
export async function compressBuild(dir: string, cache: string = defaultCompressCache): Promise<{ compressed: number; reused: number }> {
  const paths = ['assets', 'embed', join('dashboard', 'assets')].flatMap((folder) => {
    try {
      return readdirSync(join(dir, folder))
        .filter((name) => compressible.test(name))
        .map((name) => join(dir, folder, name))
    } catch {
      return []
    }
  })
  await mkdir(cache, { recursive: true })
  const reusedFlags = await Promise.all(
    paths.map(async (path) => {
      const body = await readFile(path)
      const key = join(cache, createHash('sha256').update(levels).update(body).digest('hex'))
      const kept = await keptCopies(key, body)
      const [br, gz] = kept ?? (await compressed(body))
      await Promise.all([writeFile(path + precompressed.br, br), writeFile(path + precompressed.gzip, gz)])
      if (kept) {
        const now = new Date()
        await Promise.all([utimes(key + precompressed.br, now, now), utimes(key + precompressed.gzip, now, now)]).catch(() => {})
      } else {
        await Promise.all([keep(key + precompressed.br, br), keep(key + precompressed.gzip, gz)])
      }
      return Boolean(kept)
    }),
  )
  await forgetUnused(cache)
  const reused = reusedFlags.filter(Boolean).length
  return { compressed: paths.length - reused, reused }
}

/** The copies kept for `body`, if both are there and decode to it (milliseconds, against a second to make). */
async function keptCopies(key: string, body: Buffer): Promise<[Buffer, Buffer] | undefined> {
  try {
    const [br, gz] = await Promise.all([readFile(key + precompressed.br), readFile(key + precompressed.gzip)])
    return brotliDecompressSync(br).equals(body) && gunzipSync(gz).equals(body) ? [br, gz] : undefined
  } catch {
    return undefined
  }
}

function compressed(body: Buffer): Promise<[Buffer, Buffer]> {
  return Promise.all([brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }), gzipped(body, { level: 9 })])
}

/** Written whole under a name of its own, then renamed: two builds side by side (or two files of the
 * same bytes in one) never read half a copy, and the last rename wins with the same bytes. */
async function keep(path: string, bytes: Uint8Array) {
  const partial = `${path}.${randomUUID()}.partial`
  await writeFile(partial, bytes)
  await rename(partial, path)
}

/** The copies of files no build has produced for a week: what the cache holds stays about one page. */
async function forgetUnused(cache: string) {
  const now = Date.now()
  for (const name of await readdir(cache)) {
    const path = join(cache, name)
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: now }))
    if (now - mtimeMs > unusedFor) await rm(path, { force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await compressBuild(distDir())
