import { encode } from 'uqr'

/** A QR code's dark modules as one SVG path inside a quiet zone, so any phone camera reads it. Its own
 * chunk (src/ui/QrCode.tsx loads it): the encoder is most of a QR code's weight, and free of Preact, so
 * that the page's Preact is in no chunk but the app's. */
export function qrPath(value: string): { size: number; path: string } {
  const { data, size } = encode(value, { border: 2 })
  let path = ''
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`
    }),
  )
  return { size, path }
}
