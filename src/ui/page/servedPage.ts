import * as z from 'zod/mini'
import { invoiceDocumentOf, type InvoiceDocument } from '../../api/createPayApi'
import { metadataResponseSchema } from '../../../shared/wire'

/** The element the server writes the page's first data into: a JSON data block, which no browser
 * executes (the CSP allows no inline script, and needs none for it). */
export const servedPageElementId = 'svc-served'

/** What the server rendered the pay page with: GET /v1/pay/:id/metadata's answer, or that the invoice
 * does not exist, and the locale it chose. The page hydrates exactly this, then checks the invoice
 * against the chain like any answer of the service. */
export const servedPageSchema = z.union([
  z.object({ locale: z.string(), notFound: z.literal(true) }),
  z.object({ locale: z.string(), response: metadataResponseSchema }),
])

export type ServedPage = z.infer<typeof servedPageSchema>

/** The served data, or null when the server rendered none or wrote something else. */
export function readServedPage(document: Pick<Document, 'getElementById'>): ServedPage | null {
  const text = document.getElementById(servedPageElementId)?.textContent
  if (!text) return null
  try {
    const parsed = servedPageSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export function servedDocument(page: ServedPage): InvoiceDocument | null {
  return 'response' in page ? invoiceDocumentOf(page.response) : null
}

/** The data block's content: `<` escaped so that no value can close the element. */
export function servedPageJson(page: ServedPage): string {
  return JSON.stringify(page).replace(/</g, '\\u003c')
}
