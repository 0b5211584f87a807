import { createContext } from 'preact'
import type { PageParams } from './pageParams'

/** Where this page is: the share link's parts, for the language switch's links and the ways to carry
 * the invoice to another device. `origin` is the page's own (null on the server, which renders no
 * part that needs it); absent when the widget runs inline on a merchant's page. */
export type PageLink = Pick<PageParams, 'token' | 'embed' | 'theme' | 'locale'> & { invoiceId: string; origin: string | null }

export const PageLinkContext = createContext<PageLink | null>(null)
