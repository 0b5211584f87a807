import { encode } from 'uqr'

export type QrPath = { size: number; path: string }

/** A QR code's dark modules as one SVG path, with the four-module quiet zone cameras need and medium
 * error correction (a screen's glare or a smudge does not stop a phone from reading it). Its own chunk
 * (src/ui/QrCode.tsx loads it): the encoder is most of a QR code's weight, and free of Preact, so the
 * page's Preact stays in the app's chunk alone. */
export function qrPath(value: string): QrPath {
  const { data, size } = encode(value, { ecc: 'M', border: 4 })
  let path = ''
  data.forEach((row, y) => row.forEach((dark, x) => dark && (path += `M${x} ${y}h1v1h-1z`)))
  return { size, path }
}
