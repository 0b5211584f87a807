import { deflateSync } from 'node:zlib'
import { crc32 } from '../server/branding/crc32'

/** The demo studio's brand colour: `npm start` shows the pay page in it. */
export const demoBrandColor = '#6d28d9'

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), 8 + data.length)
  return out
}

/** An RGBA PNG of `width`×`height` whose pixel at (x, y) is `pixel(x, y)`: what the demo's logo and
 * the tests' logos are drawn with, so that no image file needs to be kept in the repository. */
export function drawPng(width: number, height: number, pixel: (x: number, y: number) => readonly [number, number, number, number]): Uint8Array {
  const raw = Buffer.alloc((width * 4 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1)
    raw[row] = 0 // no filter
    for (let x = 0; x < width; x++) Buffer.from(pixel(x, y)).copy(raw, row + 1 + x * 4)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 6, 0, 0, 0], 8) // 8 bits per sample, RGBA, deflate, adaptive filtering, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array())]))
}

/** The demo studio's logo: a violet disc with a white diamond outline in it, 96 px square, on a
 * transparent ground (a mark that reads as no control: an arrow in a page's corner looks like "back"). */
export function demoLogo(): Uint8Array {
  const size = 96
  const violet = [0x6d, 0x28, 0xd9, 255] as const
  return drawPng(size, size, (x, y) => {
    const dx = x - size / 2 + 0.5
    const dy = y - size / 2 + 0.5
    if (dx * dx + dy * dy > (size / 2) ** 2) return [0, 0, 0, 0]
    const diamond = Math.abs(dx) + Math.abs(dy)
    return diamond > 16 && diamond < 28 ? [255, 255, 255, 255] : violet
  })
}
