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

/** A body the server makes itself (the rendered page), compressed at a fast level: it is done while
 * requests wait, rather than once at build. */
function compress(text: string, encoding: ContentEncoding | null): Uint8Array<ArrayBuffer> {
  const body = Buffer.from(text)
  if (encoding === 'br') return new Uint8Array(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }))
  if (encoding === 'gzip') return new Uint8Array(gzipSync(body, { level: 6 }))
  return new Uint8Array(body.buffer, body.byteOffset, body.length)
}

/** A body the server made and may serve more than once (a rendered page it keeps): encoded on the
 * first request that asks for each encoding, and kept with it. */
export type MadeBody = { text: string; encoded?: Partial<Record<ContentEncoding | 'identity', Uint8Array<ArrayBuffer>>> }

export function compressedOnce(made: MadeBody, acceptEncoding: string | undefined): Encoded {
  const encoding = negotiateEncoding(acceptEncoding)
  const kept = (made.encoded ??= {})
  return encoded((kept[encoding ?? 'identity'] ??= compress(made.text, encoding)), encoding)
}
