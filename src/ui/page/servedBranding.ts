import type { PublicBranding } from '../../../shared/brandingWire'
import { pageBrandingOf, type PageBranding } from './pageBrandingOf'

/** The element the server writes the payee's branding into, beside the served page's data. */
export const servedBrandingElementId = 'svc-branding'

/** The data block's content: `<` escaped so that no value can close the element. */
export function servedBrandingJson(branding: PublicBranding | null): string {
  return JSON.stringify({ branding }).replace(/</g, '\\u003c')
}

/** What the server rendered the page's branding with: `undefined` where it wrote none (a page it did
 * not render, which asks the service itself), else the branding or null for none. */
export function readServedBranding(document: Pick<Document, 'getElementById'>): PageBranding | null | undefined {
  const text = document.getElementById(servedBrandingElementId)?.textContent
  if (!text) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null && 'branding' in parsed ? pageBrandingOf(parsed.branding, '') : null
  } catch {
    return null
  }
}
