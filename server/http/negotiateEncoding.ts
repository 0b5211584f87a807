import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { precompressed } from '../../build/compress'
import { qualityValues } from './qualityValues'

export type ContentEncoding = keyof typeof precompressed

/** A built file and the compressed copies the build wrote beside it (`build/compress.ts`). */
export type EncodedFile = { identity: Uint8Array<ArrayBuffer> } & Partial<Record<ContentEncoding, Uint8Array<ArrayBuffer>>>

type Encoded = { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> }

/** The best encoding the client accepts of those built beside each file: brotli, then gzip, else none.
 * `q=0` refuses an encoding (RFC 9110 12.5.3). */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  const accepted = new Map(qualityValues(acceptEncoding).map(({ value, q }) => [value, q]))
  const weight = (encoding: ContentEncoding) => accepted.get(encoding) ?? accepted.get('*') ?? 0
  const best = (['br', 'gzip'] as const).filter((encoding) => weight(encoding) > 0).sort((a, b) => weight(b) - weight(a))
  return best[0] ?? null
}

function encoded(body: Uint8Array<ArrayBuffer>, encoding: ContentEncoding | null): Encoded {
  // every answer depends on Accept-Encoding, the plain one too: caches must key on it
  return { body, headers: encoding ? { Vary: 'Accept-Encoding', 'Content-Encoding': encoding } : { Vary: 'Accept-Encoding' } }
}

/** Reads a file and its compressed copies once, for files served from memory. */
export function readEncodedFile(path: string): EncodedFile {
  const file: EncodedFile = { identity: new Uint8Array(readFileSync(path)) }
  for (const [encoding, suffix] of Object.entries(precompressed) as [ContentEncoding, string][]) {
    try {
      file[encoding] = new Uint8Array(readFileSync(path + suffix))
    } catch {
      // not compressed by this build: served as it is
    }
  }
  return file
}

/** The copy of a file in memory that the client should get. */
export function encodedBody(file: EncodedFile, acceptEncoding: string | undefined): Encoded {
  const encoding = negotiateEncoding(acceptEncoding)
  const body = encoding ? file[encoding] : undefined
  return body ? encoded(body, encoding) : encoded(file.identity, null)
}

/** The same, read from disk on each request. Throws the file system's error when the file is missing. */
export async function precompressedFile(path: string, acceptEncoding: string | undefined): Promise<Encoded> {
  const encoding = negotiateEncoding(acceptEncoding)
  const body = encoding ? await readFile(path + precompressed[encoding]).catch(() => null) : null
  return body ? encoded(new Uint8Array(body), encoding) : encoded(new Uint8Array(await readFile(path)), null)
}

/** A body made for this one request (the rendered page), compressed now in the best encoding the
 * client accepts: at a fast level, as it is done on every request rather than once at build. */
export function compressedNow(text: string, acceptEncoding: string | undefined): Encoded {
  const encoding = negotiateEncoding(acceptEncoding)
  const body = Buffer.from(text)
  if (encoding === 'br') return encoded(new Uint8Array(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })), 'br')
  if (encoding === 'gzip') return encoded(new Uint8Array(gzipSync(body, { level: 6 })), 'gzip')
  return encoded(new Uint8Array(body), null)
}
