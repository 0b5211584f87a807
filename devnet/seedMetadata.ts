import { invoiceRegistryAbi } from '../contracts/artifacts/InvoiceRegistry'
import { shareLinkFor } from '../shared/shareLink'
import type { Stores } from '../server/store/openStores'
import { devnetClients } from './deploy'
import type { SeededInvoice } from './seed'
import type { ReachableDevnet } from './startDevnet'

export type SeededShareLink = { invoiceId: bigint; tokenId: string; shareLink: string }

/** Stores every demo invoice's metadata encrypted, bound to the metaHash the chain holds for it (the
 * store refuses metadata that does not hash to it), and gives each a default access token. */
export async function seedMetadata(
  stores: Stores,
  devnet: Pick<ReachableDevnet, 'anvil' | 'deployment'>,
  publicUrl: string,
  invoices: SeededInvoice[],
): Promise<SeededShareLink[]> {
  const { public: client } = devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId)
  const links: SeededShareLink[] = []
  for (const invoice of invoices) {
    const key = stores.invoiceKey(invoice.id)
    const onChain = await client.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })
    await stores.metadata.putMetadata(key, invoice.metadata, onChain.metaHash)
    const { tokenId, token } = await stores.tokens.createToken({ invoice: key, isDefault: true, label: 'share link' })
    links.push({ invoiceId: invoice.id, tokenId, shareLink: shareLinkFor(publicUrl, invoice.id, token) })
  }
  return links
}
