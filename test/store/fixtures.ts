import { randomBytes } from 'node:crypto'
import { bytesToHex, type Hex } from 'viem'
import type { InvoiceMetadata } from '../../shared/metadata'
import type { InvoiceKey } from '../../server/store/invoiceKey'
import type { PreparedPayment } from '../../server/store/paymentStore'

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
    token: { address: '0x435b47c72448745A552d9698d3c0C8b2b2DDF001', symbol: 'USDC', decimals: 6, chainId: 31337 },
    amount: '1360.00',
    amountRaw: '1360000000',
    lineItems: [{ description: 'UX research and wireframes', quantity: 16, unitPrice: '85.00', amount: '1360.00' }],
    createdBy: 'merchant',
    createdAt: '2026-11-01T09:30:00Z',
    ...overrides,
  }
}

/** A prepared payment for a random invoice whose permit runs an hour. */
export function preparedPayment(): PreparedPayment {
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600)
  return {
    userOpHash: randomHash(),
    invoice: randomInvoiceKey(),
    payer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    owner: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    userOp: {
      sender: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      nonce: '0',
      factory: '0xBa93D7fe8840cfC5C63E5b3F2FC08e8cC806C522',
      factoryData: '0x5fbfb9cf',
      callData: '0xb61d27f6',
      callGasLimit: '120000',
      verificationGasLimit: '400000',
      preVerificationGas: '52000',
      maxFeePerGas: '2000000000',
      maxPriorityFeePerGas: '1000000000',
      paymaster: '0x4F893aCfe49eb35bD2850873E384e624bba8374c',
      paymasterVerificationGasLimit: '60000',
      paymasterPostOpGasLimit: '0',
      paymasterData: '0x00',
      signature: '0x',
    },
    permit: { deadline, v: 27, r: randomHash(), s: randomHash() },
    expiresAt: new Date(Number(deadline) * 1000),
  }
}
