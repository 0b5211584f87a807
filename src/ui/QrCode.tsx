import { useEffect, useState } from 'preact/hooks'
import type { qrPath as QrPath } from './qrPath'

/** A QR code drawn in the page as an inline SVG (nothing fetched but the encoder, which loads only where
 * a QR code is shown). `label` names what it encodes, for assistive technology. Draws nothing until the
 * encoder has arrived: the place it is shown in reserves its square. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const [drawn, setDrawn] = useState<ReturnType<typeof QrPath> | null>(null)
  useEffect(() => {
    let live = true
    void import('./qrPath').then(({ qrPath }) => live && setDrawn(qrPath(value)))
    return () => {
      live = false
    }
  }, [value])
  if (!drawn) return null
  const { size, path } = drawn
  return (
    <svg class="svc-qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width={size * 4} height={size * 4} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
