import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, test } from 'vitest'
import { compressBuild } from '../../build/compress'

const root = mkdtempSync(join(tmpdir(), 'svc-compress-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A built page's folders with `files` in assets/, as vite writes them. */
function pageFolder(name: string, files: Record<string, string>) {
  const dir = join(root, name)
  mkdirSync(join(dir, 'assets'), { recursive: true })
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'assets', file), text)
  return dir
}

const decoded = (dir: string, file: string) => ({
  br: brotliDecompressSync(readFileSync(join(dir, 'assets', `${file}.br`))).toString(),
  gzip: gunzipSync(readFileSync(join(dir, 'assets', `${file}.gz`))).toString(),
})

describe('compressing a build', () => {
  const library = `export const wallets = ${JSON.stringify('a wallet library, the same in every build '.repeat(500))}`

  test('behavior: a second build compresses only the file that changed and reuses the copies of the rest, which decode to its files', async () => {
    const cache = join(root, 'cache-reused')
    const first = pageFolder('first', { 'library-abc.js': library, 'page-1.js': 'export const rpc = "http://127.0.0.1:8545"' })
    expect(await compressBuild(first, cache)).toEqual({ compressed: 2, reused: 0 })
    const second = pageFolder('second', { 'library-abc.js': library, 'page-2.js': 'export const rpc = "http://127.0.0.1:40123"' })
    expect(await compressBuild(second, cache)).toEqual({ compressed: 1, reused: 1 })
    expect(decoded(second, 'library-abc.js')).toEqual({ br: library, gzip: library })
    expect(decoded(second, 'page-2.js')).toEqual({ br: 'export const rpc = "http://127.0.0.1:40123"', gzip: 'export const rpc = "http://127.0.0.1:40123"' })
  })

  test('behavior: a kept copy that no longer decodes to the file is not served: the file is compressed again', async () => {
    const cache = join(root, 'cache-damaged')
    expect(await compressBuild(pageFolder('before', { 'library-abc.js': library }), cache)).toEqual({ compressed: 1, reused: 0 })
    for (const name of readdirSync(cache).filter((name) => name.endsWith('.br'))) writeFileSync(join(cache, name), 'not brotli')
    const third = pageFolder('third', { 'library-abc.js': library })
    expect(await compressBuild(third, cache)).toEqual({ compressed: 1, reused: 0 })
    expect(decoded(third, 'library-abc.js')).toEqual({ br: library, gzip: library })
  })
})
