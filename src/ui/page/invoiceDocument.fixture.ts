import { demoInvoices, demoMetadata } from '../../../devnet/demoInvoices'
import type { PinnedDeployment } from '../../config/pinnedDeployment'
import { hashMetadata, type InvoiceMetadata } from '../../../shared/metadata'
import type { WireInvoice } from '../../../shared/wire'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { confirmedTestInvoice, testInvoice } from '../../verify/preparedPayment.fixture'

/** Test-only: the first demo invoice's metadata for `deployment`, and the confirmed on-chain invoice
 * that commits to it (same hash, amount and merchant vault). */
export function testDocument(deployment: PinnedDeployment, overrides: Partial<WireInvoice> = {}): { metadata: InvoiceMetadata; invoice: ShownInvoice } {
  const merchant = '0x2222222222222222222222222222222222222222'
  const metadata = demoMetadata(demoInvoices[0]!, {
    invoiceNumber: 7n,
    issuedAt: new Date('2026-11-02T10:00:00Z'),
    token: { address: deployment.token, symbol: 'USDC', decimals: 6, chainId: deployment.chainId },
    merchantVault: merchant,
  })
  const invoice = confirmedTestInvoice(testInvoice(deployment, { merchant, amount: metadata.amountRaw, metaHash: hashMetadata(metadata), ...overrides }))
  return { metadata, invoice }
}
