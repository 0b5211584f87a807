import { formatUnits, getAddress, type Address } from 'viem'
import type { InvoiceMetadata } from '../../shared/metadata'
import { hashMetadata } from '../../shared/metadataHash'

/** The wire shapes the dashboard reads the parties from: GET /v1/studios/me's profile and a customer. */
export type ProfileWire = {
  legalName: string | null
  email: string | null
  address: { street: string | null; city: string | null; postal: string | null; country: string | null }
  registrationNumber: string | null
  vatNumber: string | null
  taxId: string | null
}
export type CustomerWire = {
  id: string
  legalName: string
  email: string
  address: { street: string; city: string; postal: string; country: string }
  registrationNumber: string | null
  vatNumber: string | null
  taxId: string | null
  walletAddress: string | null
}

type Party = InvoiceMetadata['merchant']

const optional = (fields: Record<string, string | null>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value))

const isoDay = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString().slice(0, 10)

/**
 * The invoice's record (SPEC 2.5) and the fields of POST /v1/invoices/prepare bound to it: with an
 * owner-signed invoice the record is the merchant's own, written here as the server's signer writes
 * its own (the studio's profile as the merchant party with the vault as its wallet, the customer as
 * the payer, one line), and the chain commits to its hash. The server checks the hash, amount, token
 * and days before it keeps the record.
 */
export function invoiceRecord(input: {
  owner: Address
  vault: Address
  profile: ProfileWire
  customer: CustomerWire
  token: InvoiceMetadata['token']
  amount: bigint
  dueDays: number
  description: string
  invoiceNumber: string
  chainSeconds: bigint
  now: Date
}) {
  const { profile, customer, token } = input
  const issuedAt = input.chainSeconds
  const dueAt = issuedAt + BigInt(Math.max(0, Math.floor(input.dueDays))) * 86_400n
  const merchant: Party = {
    name: profile.legalName ?? '',
    email: profile.email ?? '',
    address: { street: profile.address.street ?? '', city: profile.address.city ?? '', postal: profile.address.postal ?? '', country: profile.address.country ?? '' },
    ...optional({ registrationNumber: profile.registrationNumber, vatNumber: profile.vatNumber, taxId: profile.taxId }),
    walletAddress: getAddress(input.vault),
  }
  const payer: Party = {
    name: customer.legalName,
    email: customer.email,
    address: { ...customer.address },
    ...optional({ registrationNumber: customer.registrationNumber, vatNumber: customer.vatNumber, taxId: customer.taxId }),
    ...(customer.walletAddress ? { walletAddress: getAddress(customer.walletAddress) } : {}),
  }
  const amount = formatUnits(input.amount, token.decimals)
  const description = input.description.trim() || undefined
  const metadata: InvoiceMetadata = {
    version: '1.0',
    invoiceNumber: input.invoiceNumber,
    issuedAt: isoDay(issuedAt),
    dueAt: isoDay(dueAt),
    merchant,
    payer,
    token,
    amount,
    amountRaw: input.amount.toString(),
    lineItems: [{ description: description ?? `Invoice ${input.invoiceNumber}`, quantity: 1, unitPrice: amount, amount }],
    createdBy: "the studio owner's wallet, in the dashboard",
    createdAt: input.now.toISOString(),
    ...(description ? { description } : {}),
  }
  const metaHash = hashMetadata(metadata)
  return {
    ownerAddress: input.owner,
    amount: input.amount.toString(),
    dueAt: dueAt.toString(),
    issuedAt: issuedAt.toString(),
    tokenURI: '',
    metaHash,
    // no mandate: the dashboard's invoices carry none, and the registry stores the zero hash for it
    mandateHash: `0x${'0'.repeat(64)}`,
    customerId: customer.id,
    metadata,
  }
}
