import { useContext } from 'preact/hooks'
import { shareLinkFor } from '../../../shared/shareLink'
import { PageLinkContext } from '../page/PageLinkContext'

/** This invoice's share link (SPEC 2.6), where the page knows it: not inline on a merchant's page,
 * nor without a token, nor on the server. */
export function useShareLink(): string | null {
  const link = useContext(PageLinkContext)
  return link?.origin && link.token ? shareLinkFor(link.origin, BigInt(link.invoiceId), link.token) : null
}
