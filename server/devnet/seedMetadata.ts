import type { Stores } from '../store/openStores'
import type { Devnet } from './startDevnet'
import { hashMetadata } from '../../src/shared/metadata'
import { shareLinkFor } from '../../src/shared/shareLink'

export type SeededShareLink = { invoiceId: bigint; tokenId: string; shareLink: string }

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
