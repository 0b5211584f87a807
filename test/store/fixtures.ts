import { randomBytes } from 'node:crypto'
import { bytesToHex, type Hex } from 'viem'
import type { InvoiceMetadata } from '../../src/shared/metadata'
import type { InvoiceKey } from '../../server/store/invoiceKey'

export const registry = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/** Tests share one database per backend; random keys keep them out of each other's way. */
export function randomInvoiceKey(): InvoiceKey {
  return { chainId: 31337, registry, invoiceId: BigInt(`0x${randomBytes(8).toString('hex')}`) }
}

export function randomHash(): Hex {
  return bytesToHex(randomBytes(32))
}

export function sampleMetadata(overrides: Partial<InvoiceMetadata> = {}): InvoiceMetadata {
  return {
    version: '1.0',
    invoiceNumber: 'NW-0042',
    issuedAt: '2026-11-01',
    dueAt: '2026-11-15',
    merchant: { name: 'Northwind Studio Ltd', email: 'billing@northwind.example' },
    payer: { name: 'Acme Robotics GmbH', address: { street: 'Lindenstraße 4', city: 'Berlin', postal: '10969', country: 'DE' } },
    token: { address: '0xC78bf691a0E62dFE255DC429da4caD641E800927', symbol: 'USDC', decimals: 6, chainId: 31337 },
    amount: '1360.00',
    amountRaw: '1360000000',
    lineItems: [{ description: 'UX research and wireframes', quantity: 16, unitPrice: '85.00', amount: '1360.00' }],
    createdBy: 'merchant',
    createdAt: '2026-11-01T09:30:00Z',
    ...overrides,
  }
}
