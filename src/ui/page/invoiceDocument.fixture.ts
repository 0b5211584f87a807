import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { InvoiceMetadata } from '../../../shared/metadata'
import { hashMetadata } from '../../../shared/metadataHash'
import type { WireInvoice } from '../../../shared/wire'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { confirmedTestInvoice, testInvoice } from '../../verify/preparedPayment.fixture'

/** Test-only: an invoice's metadata for `deployment` (the devnet's first demo invoice, written out), and the confirmed on-chain invoice
 * that commits to it (same hash, amount and merchant vault). */
export function testDocument(deployment: PinnedDeployment, overrides: Partial<WireInvoice> = {}): { metadata: InvoiceMetadata; invoice: ShownInvoice } {
  const merchant = '0x2222222222222222222222222222222222222222'
  const metadata: InvoiceMetadata = {
    version: '1.0',
    invoiceNumber: 'NW-0007',
    issuedAt: '2026-11-02',
    dueAt: '2026-11-16',
    merchant: { name: 'Northwind Studio Ltd', email: 'billing@northwind.example', walletAddress: merchant },
    payer: { name: 'Acme Robotics GmbH', address: { street: 'Lindenstraße 4', city: 'Berlin', postal: '10969', country: 'DE' } },
    token: { address: deployment.token, symbol: 'USDC', decimals: 6, chainId: deployment.chainId },
    amount: '4540.00',
    amountRaw: '4540000000',
    lineItems: [
      { description: 'UX research and wireframes', quantity: 16, unitPrice: '85.00', amount: '1360.00' },
      { description: 'Visual design, 6 templates', quantity: 24, unitPrice: '85.00', amount: '2040.00' },
      { description: 'Front-end build', quantity: 12, unitPrice: '95.00', amount: '1140.00' },
    ],
    createdBy: 'merchant',
    createdAt: '2026-11-02T10:00:00Z',
    description: 'Website redesign, phase 1',
    paymentTerms: 'Net 14',
    notes: 'Thank you for your business. Phase 2 starts on receipt of payment.',
    purchaseOrder: 'PO-2026-0117',
  }
  // due at the end of the record's due day, as the devnet issues it
  const dueAt = String(Date.parse(`${metadata.dueAt}T23:59:59Z`) / 1000)
  const invoice = confirmedTestInvoice(testInvoice(deployment, { merchant, amount: metadata.amountRaw, metaHash: hashMetadata(metadata), dueAt, ...overrides }))
  return { metadata, invoice }
}
