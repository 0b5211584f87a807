import { useEffect, useState } from 'preact/hooks'
import { useLocale } from '../LocaleContext'

/** An address or hash as people expect it: `0x5023…12F4` on one line, never broken mid-word, with the
 * whole value on hover (title) and to assistive technology, in print, and one click from the
 * clipboard. `label` says what it is ("address", "transaction"). */
export function ShortHex({ value, label }: { value: string; label: string }) {
  const { strings: t } = useLocale()
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])
  const short = value.length > 13 ? `${value.slice(0, 6)}…${value.slice(-4)}` : value
  const copy = () =>
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => {},
    )
  return (
    <span class="svc-hex" title={value}>
      <code class="svc-hex-short" aria-hidden="true">
        {short}
      </code>
      <span class="svc-hex-full">{value}</span>
      <button type="button" class="svc-copy" title={value} aria-label={t.copyValue(label, value)} onClick={copy}>
        {/* both words in one cell: "Copied" replacing "Copy" moves nothing */}
        <span hidden={copied}>{t.copy}</span>
        <span hidden={!copied}>{t.copied}</span>
      </button>
      <span class="svc-hex-full" role="status">
        {copied ? t.copied : ''}
      </span>
    </span>
  )
}
