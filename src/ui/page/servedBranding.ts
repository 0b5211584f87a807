import { pageBrandingOf, type PageBranding } from './pageBrandingOf'

/** servedPage.ts's `servedPageElementId`, spelled here: that module carries zod, which the page's
 * first chunk does not (a test holds the two equal). */
export const servedDataElementId = 'svc-served'

/** What the server rendered the page's branding with, from the served data block's `branding`:
 * `undefined` where it wrote none (a page it did not render, which asks the service itself), else the
 * branding, or null for none or for anything malformed. */
export function readServedBranding(document: Pick<Document, 'getElementById'>): PageBranding | null | undefined {
  const text = document.getElementById(servedDataElementId)?.textContent
  if (!text) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null || !('branding' in parsed)) return undefined
    return pageBrandingOf(parsed.branding, '')
  } catch {
    return null
  }
}
