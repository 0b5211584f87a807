import { useEffect, useState } from 'preact/hooks'
import { pageBrandingOf, type PageBranding } from './pageBrandingOf'

/**
 * The payee's branding: what the server rendered the page with, or, where it rendered nothing (the
 * inline widget, a bare page), GET /v1/pay/:id/branding of `baseUrl`. A service without the route, a
 * failure or a malformed answer is no branding: the page then keeps its own colours.
 */
export function useBranding(baseUrl: string, invoiceId: string, served: PageBranding | null | undefined): PageBranding | null {
  const [branding, setBranding] = useState<PageBranding | null>(served ?? null)
  useEffect(() => {
    if (served !== undefined) return
    let current = true
    const url = `${baseUrl.replace(/\/+$/, '')}/v1/pay/${encodeURIComponent(invoiceId)}/branding`
    fetch(url, { headers: { accept: 'application/json' }, referrerPolicy: 'no-referrer', signal: AbortSignal.timeout(10_000) })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: unknown) => {
        if (current && typeof body === 'object' && body !== null && 'branding' in body) setBranding(pageBrandingOf(body.branding, baseUrl))
      })
      .catch(() => {})
    return () => {
      current = false
    }
  }, [baseUrl, invoiceId, served])
  return branding
}
