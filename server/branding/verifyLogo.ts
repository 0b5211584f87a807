import { createHash } from 'node:crypto'
import { CodedError } from '../../shared/codedError'
import { logoLimits, type LogoType } from '../../shared/brandingWire'
import { crc32 } from './crc32'

/** A logo refused, with a code a merchant's backend can act on: too large (bytes or pixels), not a
 * type we accept (SVG, GIF, anything else), or not the image it claims to be. */
export class LogoRefusedError extends CodedError {
  override name = 'LogoRefusedError'
  constructor(
    readonly code: 'LOGO_TOO_LARGE' | 'LOGO_TYPE_NOT_ACCEPTED' | 'LOGO_INVALID',
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, { details })
  }
}

export type VerifiedLogo = { bytes: Uint8Array; contentType: LogoType; sha256: string; width: number; height: number }

/**
 * The logo a merchant sent, as base64, once it is a PNG, JPEG or WebP whose structure holds from its
 * signature to its end, at most 64 KiB and 1024 px each side. Bytes after the image's own end are
 * cut off: they are where a file hides a second meaning (an HTML or script polyglot).
 *
 * We accept only these raster formats rather than sanitise anything richer: none of them can carry
 * script or a reference to another file, and served with a fixed Content-Type, nosniff and a
 * sandboxing CSP (server/routes/brandingRoutes.ts) no browser reads them as anything but an image.
 * SVG is a document: scripts, event attributes, external references and CSS, which a sanitiser must
 * get exactly right forever; a logo does not need it, so it is refused by its text, not parsed.
 */
export function verifyLogo(base64: string): VerifiedLogo {
  const decoded = new Uint8Array(Buffer.from(base64, 'base64'))
  if (decoded.length > logoLimits.bytes) {
    throw new LogoRefusedError('LOGO_TOO_LARGE', `the logo is ${decoded.length} bytes: at most ${logoLimits.bytes} (64 KiB) are accepted`, { bytes: decoded.length, maxBytes: logoLimits.bytes })
  }
  if (decoded.length === 0) throw new LogoRefusedError('LOGO_INVALID', 'the logo is empty: send a PNG, JPEG or WebP image, or leave logo out')
  const image = parsePng(decoded) ?? parseJpeg(decoded) ?? parseWebp(decoded)
  if (!image) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(decoded.subarray(0, 512)).trimStart().toLowerCase()
    const vector = text.startsWith('<') && (text.includes('<svg') || text.startsWith('<?xml'))
    throw new LogoRefusedError(
      vector || startsWith(decoded, [0x47, 0x49, 0x46]) ? 'LOGO_TYPE_NOT_ACCEPTED' : 'LOGO_INVALID',
      vector
        ? 'SVG logos are not accepted (an SVG can carry script and links to other files): send a PNG, JPEG or WebP'
        : 'the logo is not a whole PNG, JPEG or WebP image: send one of those',
    )
  }
  const { contentType, width, height, end } = image
  if (width > logoLimits.pixels || height > logoLimits.pixels) {
    throw new LogoRefusedError('LOGO_TOO_LARGE', `the logo is ${width}×${height} px: at most ${logoLimits.pixels} px each side are accepted`, { width, height, maxPixels: logoLimits.pixels })
  }
  const bytes = decoded.slice(0, end)
  return { bytes, contentType, width, height, sha256: createHash('sha256').update(bytes).digest('hex') }
}

type ParsedImage = { contentType: LogoType; width: number; height: number; end: number }

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return prefix.every((byte, i) => bytes[at + i] === byte)
}

const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) + b[at + 1]!
const u32le = (b: Uint8Array, at: number) => b[at]! + (b[at + 1]! << 8) + (b[at + 2]! << 16) + ((b[at + 3]! << 24) >>> 0)
const ascii = (b: Uint8Array, at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length))

/** PNG (RFC 2083): the signature, IHDR first, every chunk's CRC right, image data, IEND. */
function parsePng(b: Uint8Array): ParsedImage | null {
  if (!startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return null
  let at = 8
  let header: { width: number; height: number } | null = null
  let data = false
  while (at + 12 <= b.length) {
    const length = u32be(b, at)
    const type = ascii(b, at + 4, 4)
    const end = at + 12 + length
    if (!/^[A-Za-z]{4}$/.test(type) || end > b.length) return null
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== u32be(b, at + 8 + length)) return null
    if (!header) {
      if (type !== 'IHDR' || length !== 13) return null
      header = { width: u32be(b, at + 8), height: u32be(b, at + 12) }
      if (header.width === 0 || header.height === 0) return null
    }
    if (type === 'IDAT') data = true
    if (type === 'IEND') return data ? { contentType: 'image/png', ...header, end } : null
    at = end
  }
  return null
}

/** JPEG (ITU T.81): SOI, marker segments up to a frame header with the size, the scan, EOI. */
function parseJpeg(b: Uint8Array): ParsedImage | null {
  if (!startsWith(b, [0xff, 0xd8, 0xff])) return null
  let at = 2
  let size: { width: number; height: number } | null = null
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null
    const marker = b[at + 1]!
    if (marker === 0xff) {
      at += 1
      continue
    }
    const length = u16be(b, at + 2)
    if (length < 2 || at + 2 + length > b.length) return null
    // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): height, then width
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 7) return null
      size = { height: u16be(b, at + 5), width: u16be(b, at + 7) }
    }
    if (marker === 0xda) {
      if (!size || size.width === 0 || size.height === 0) return null
      // entropy-coded data runs to EOI; FF 00 and restart markers are inside it
      for (let scan = at + 2 + length; scan + 1 < b.length; scan++) {
        if (b[scan] === 0xff && b[scan + 1] === 0xd9) return { contentType: 'image/jpeg', ...size, end: scan + 2 }
      }
      return null
    }
    at += 2 + length
  }
  return null
}

/** WebP (RFC 9649): a RIFF file of the size it says, a still image (VP8, VP8L or VP8X without animation). */
function parseWebp(b: Uint8Array): ParsedImage | null {
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return null
  const end = 8 + u32le(b, 4)
  if (end > b.length || end < 20) return null
  const chunk = ascii(b, 12, 4)
  let size: { width: number; height: number } | null = null
  if (chunk === 'VP8 ') {
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return null
    size = { width: (b[26]! + (b[27]! << 8)) & 0x3fff, height: (b[28]! + (b[29]! << 8)) & 0x3fff }
  } else if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null
    const bits = u32le(b, 21)
    size = { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  } else if (chunk === 'VP8X') {
    // animation flag: a moving logo is not a logo we show (WCAG 2.2.2)
    if (b[20]! & 0x02) return null
    size = { width: 1 + b[24]! + (b[25]! << 8) + (b[26]! << 16), height: 1 + b[27]! + (b[28]! << 8) + (b[29]! << 16) }
  }
  if (!size || size.width === 0 || size.height === 0) return null
  return { contentType: 'image/webp', ...size, end }
}
