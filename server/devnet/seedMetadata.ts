import type { Stores } from '../store/openStores'
import type { Devnet } from './startDevnet'
import { hashMetadata } from '../../src/shared/metadata'

export type SeededShareLink = { invoiceId: bigint; tokenId: string; shareLink: string }

/** The share-link form of SPEC 2.6: the pay page path with the token in the query, never stripped. */
export function shareLinkFor(publicUrl: string, invoiceId: bigint, token: string): string {
  const url = new URL(`/pay/${invoiceId}`, publicUrl)
  url.searchParams.set('token', token)
  return url.toString()
}

/** Stores every demo invoice's metadata encrypted and gives each a default access token. */
export async function seedMetadata(stores: Stores, devnet: Devnet, publicUrl: string): Promise<SeededShareLink[]> {
  const links: SeededShareLink[] = []
  for (const invoice of devnet.seed.invoices) {
    const key = stores.invoiceKey(invoice.id)
    await stores.metadata.putMetadata(key, invoice.metadata, hashMetadata(invoice.metadata))
    const { tokenId, token } = await stores.tokens.createToken({ invoice: key, isDefault: true, label: 'share link' })
    links.push({ invoiceId: invoice.id, tokenId, shareLink: shareLinkFor(publicUrl, invoice.id, token) })
  }
  return links
}
