import { formatUnits, parseUnits, type Address } from 'viem'
import type { InvoiceMetadata } from '../shared/metadata'

type DemoLine = { description: string; quantity: number; unitPrice: string }
type DemoInvoice = { description: string; dueInDays: number; lines: DemoLine[]; notes?: string; purchaseOrder?: string }

/** Realistic work a small studio bills for; the last one is more than the demo payer holds, so the
 * insufficient-balance state can be seen without setting anything up. */
export const demoInvoices: DemoInvoice[] = [
  {
    description: 'Website redesign, phase 1',
    dueInDays: 14,
    purchaseOrder: 'PO-2026-0117',
    lines: [
      { description: 'UX research and wireframes', quantity: 16, unitPrice: '85.00' },
      { description: 'Visual design, 6 templates', quantity: 24, unitPrice: '85.00' },
      { description: 'Front-end build', quantity: 12, unitPrice: '95.00' },
    ],
    notes: 'Thank you for your business. Phase 2 starts on receipt of payment.',
  },
  {
    description: 'Managed hosting and support, December',
    dueInDays: 30,
    lines: [
      { description: 'Managed hosting', quantity: 1, unitPrice: '149.00' },
      { description: 'Support hours', quantity: 2, unitPrice: '49.50' },
    ],
  },
  {
    description: 'Brand identity kit',
    dueInDays: 21,
    lines: [
      { description: 'Logo and wordmark', quantity: 1, unitPrice: '1200.00' },
      { description: 'Revision rounds', quantity: 3, unitPrice: '45.50' },
    ],
  },
  {
    description: 'Annual retainer, 2027',
    dueInDays: 45,
    lines: [{ description: 'Design retainer, 12 months', quantity: 12, unitPrice: '2500.00' }],
  },
]

/** The demo merchant as its invoices name it: its studio's business profile says the same (seedMerchantAccess.ts). */
export const demoMerchantParty = {
  name: 'Northwind Studio Ltd',
  email: 'billing@northwind.example',
  address: { street: '12 Harbour Row', city: 'Bristol', postal: 'BS1 5DB', country: 'GB' },
  registrationNumber: '09876543',
  vatNumber: 'GB123456789',
}

/** Whom the demo invoices bill: the demo studio's one customer (seedMerchantAccess.ts). */
export const demoPayerParty = {
  name: 'Acme Robotics GmbH',
  email: 'accounts@acme-robotics.example',
  address: { street: 'Lindenstraße 4', city: 'Berlin', postal: '10969', country: 'DE' },
  registrationNumber: 'HRB 123456',
}

export const demoInvoiceNumber = (n: bigint) => `NW-${n.toString().padStart(4, '0')}`

type Token = { address: Address; symbol: string; decimals: number; chainId: number }

export function demoMetadata(
  invoice: DemoInvoice,
  { invoiceNumber, issuedAt, token, merchantVault }: { invoiceNumber: bigint; issuedAt: Date; token: Token; merchantVault: Address },
): InvoiceMetadata {
  const lineItems = invoice.lines.map((line) => {
    const amount = parseUnits(line.unitPrice, token.decimals) * BigInt(line.quantity)
    return { ...line, amount: formatUnits(amount, token.decimals) }
  })
  const amountRaw = lineItems.reduce((sum, item) => sum + parseUnits(item.amount, token.decimals), 0n)
  const dueAt = new Date(issuedAt.getTime() + invoice.dueInDays * 86_400_000)
  return {
    version: '1.0',
    invoiceNumber: demoInvoiceNumber(invoiceNumber),
    issuedAt: issuedAt.toISOString().slice(0, 10),
    dueAt: dueAt.toISOString().slice(0, 10),
    // the vault the registry pays: the page shows the record as verified only when it names it
    merchant: { ...demoMerchantParty, walletAddress: merchantVault },
    payer: demoPayerParty,
    token,
    amount: formatUnits(amountRaw, token.decimals),
    amountRaw: amountRaw.toString(),
    lineItems,
    createdBy: 'svc-checkout devnet',
    createdAt: issuedAt.toISOString(),
    description: invoice.description,
    paymentTerms: `Net ${invoice.dueInDays}`,
    ...(invoice.notes ? { notes: invoice.notes } : {}),
    ...(invoice.purchaseOrder ? { purchaseOrder: invoice.purchaseOrder } : {}),
  }
}
