import type { Hex, PublicClient } from 'viem'
import type { Deployment } from '../../../shared/deployment'
import { encryptionKeysOf, type Config } from '../../config'
import type { Database } from '../../store/database'
import type { Stores } from '../../store/openStores'
import { invoiceListCursors } from '../invoices/invoiceListCursor'
import { tokenDetailsReader } from '../invoices/tokenDetails'
import type { PaymentReadDependencies } from '../payments/paymentRoutes'
import { createReceivedPaymentStore } from '../payments/receivedPaymentStore'
import { createRegistryFigures } from './registryFigures'
import type { RegistryReadDependencies } from './registryRoutes'
import type { StudioReadDependencies } from './studioRoutes'

/** EXPLORER_URL's link to a transaction, or null without an explorer (the devnet has none). */
export function explorerLinks(explorerUrl: string | undefined): (transactionHash: Hex | null) => string | null {
  const base = explorerUrl?.replace(/\/+$/, '')
  return (transactionHash) => (base && transactionHash ? `${base}/tx/${transactionHash}` : null)
}

/** The dependencies of the money reads: received payments and their export, the studio's reads, the
 * registry's figures. Built over the same database, chain client and index as the invoice reads. */
export function merchantReadsOf(
  config: Config,
  { client, deployment, db, stores, deploymentPending }: { client: PublicClient; deployment: Deployment; db: Database; stores: Pick<Stores, 'invoiceIndex' | 'businessProfiles'>; deploymentPending?: StudioReadDependencies['deploymentPending'] },
): { paymentReads: PaymentReadDependencies; studioReads: StudioReadDependencies; registryReads: RegistryReadDependencies } {
  const place = { chainId: deployment.chainId, registry: deployment.registry }
  const figures = createRegistryFigures(db, place)
  const tokens = tokenDetailsReader(client)
  const explorerUrl = explorerLinks(config.EXPLORER_URL)
  const keys = encryptionKeysOf(config)
  return {
    paymentReads: {
      payments: createReceivedPaymentStore(db, place),
      index: stores.invoiceIndex,
      client,
      ...place,
      fromBlock: config.REGISTRY_FROM_BLOCK,
      token: deployment.token,
      // the invoice list's cursors, under the same key: each list binds its own cursors to itself
      cursors: invoiceListCursors(keys.keys.get(keys.activeKeyId)!),
      tokens,
      explorerUrl,
    },
    studioReads: {
      client,
      chainId: deployment.chainId,
      token: deployment.token,
      entryPoint: deployment.entryPoint,
      fromBlock: config.REGISTRY_FROM_BLOCK,
      profiles: stores.businessProfiles,
      figures,
      index: stores.invoiceIndex,
      tokens,
      explorerUrl,
      ...(deploymentPending ? { deploymentPending } : {}),
    },
    registryReads: { client, ...place, figures, index: stores.invoiceIndex, tokens },
  }
}
