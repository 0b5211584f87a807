import { encode } from 'uqr'

/** A QR code drawn in the page as an inline SVG (nothing fetched): one path of dark modules inside a
 * quiet zone, so any phone camera reads it. `label` names what it encodes, for assistive technology. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { data, size } = encode(value, { border: 2 })
  let path = ''
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`
    }),
  )
  return (
    <svg class="svc-qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width={size * 4} height={size * 4} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
