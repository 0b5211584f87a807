import { useEffect, useState } from 'preact/hooks'
import type { QrPath } from './qrPath'

export type QrCodeProps = {
  /** What the code says: a URL a phone's camera opens, or an address to send to. */
  value: string
  /** What it is, for those who cannot see it. */
  label: string
}

/**
 * A QR code drawn in the page as an inline SVG: nothing about the value leaves the browser (no image
 * service sees the link or its token). Black on white whatever the theme. The encoder is its own chunk
 * (./qrPath), fetched when a code is first shown: the payers who never see one never load it, and the
 * square is drawn empty until then, so nothing moves when it arrives.
 */
export function QrCode({ value, label }: QrCodeProps) {
  const [drawn, setDrawn] = useState<QrPath | null>(null)
  useEffect(() => {
    let live = true
    void import('./qrPath').then(({ qrPath }) => live && setDrawn(qrPath(value)))
    return () => void (live = false)
  }, [value])
  const size = drawn?.size ?? 1
  return (
    <svg class="svc-qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      {drawn ? <path d={drawn.path} fill="#000" /> : null}
    </svg>
  )
}
