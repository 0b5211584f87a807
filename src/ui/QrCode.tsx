import { encode } from 'uqr'

export type QrCodeProps = {
  /** What the code says: a URL a phone's camera opens. */
  value: string
  /** What it is, for those who cannot see it. */
  label: string
}

/**
 * A QR code drawn in the page as an inline SVG: nothing about the value leaves the browser (no image
 * service sees the link or its token). One path of unit squares, black on white whatever the theme,
 * with the four-module quiet zone cameras need; medium error correction, so a screen's glare or a
 * smudge does not stop a phone from reading it.
 */
export function QrCode({ value, label }: QrCodeProps) {
  const { data, size } = encode(value, { ecc: 'M', border: 4 })
  let path = ''
  data.forEach((row, y) => row.forEach((dark, x) => dark && (path += `M${x} ${y}h1v1h-1z`)))
  return (
    <svg class="svc-qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
