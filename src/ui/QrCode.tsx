import { useEffect, useState } from 'preact/hooks'

export type QrCodeProps = {
  /** What the code says: a URL a phone's camera opens. */
  value: string
  /** What it is, for those who cannot see it. */
  label: string
}

type Drawn = { size: number; path: string }

/**
 * A QR code drawn in the page as an inline SVG: nothing about the value leaves the browser (no image
 * service sees the link or its token). One path of unit squares, black on white whatever the theme,
 * with the four-module quiet zone cameras need; medium error correction, so a screen's glare or a
 * smudge does not stop a phone from reading it. The encoder (uqr) is fetched when a code is first
 * shown: the payers who never see one never load it.
 */
export function QrCode({ value, label }: QrCodeProps) {
  const [drawn, setDrawn] = useState<Drawn | null>(null)
  useEffect(() => {
    let live = true
    void import('uqr').then((uqr) => {
      const { data, size } = uqr.encode(value, { ecc: 'M', border: 4 })
      let path = ''
      data.forEach((row, y) => row.forEach((dark, x) => dark && (path += `M${x} ${y}h1v1h-1z`)))
      if (live) setDrawn({ size, path })
    })
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
