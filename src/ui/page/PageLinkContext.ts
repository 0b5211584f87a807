import { createContext } from 'preact'
import type { PageParams } from './pageParams'

/** Where this page is: the share link's parts, to carry the invoice to another device (a QR code, a
 * wallet app's browser). Absent when the widget runs inline on a merchant's page. */
export type PageLink = Pick<PageParams, 'token'> & { invoiceId: string; origin: string }

export const PageLinkContext = createContext<PageLink | null>(null)
