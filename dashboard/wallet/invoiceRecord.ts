import type { Address } from 'viem'
import type { InvoiceMetadata } from '../../shared/metadata'
import { hashMetadata } from '../../shared/metadataHash'
import { oneLineInvoiceRecord, type CustomerDetails, type ProfileDetails } from '../../shared/oneLineInvoiceRecord'

/** The wire shapes the dashboard reads the parties from: GET /v1/studios/me's profile and a customer,
 * as the record's parties are written from them. */
export type ProfileWire = ProfileDetails
export type CustomerWire = CustomerDetails & { id: string }

/**
 * The invoice's record (SPEC 2.5) and the fields of POST /v1/invoices/prepare bound to it: with an
 * owner-signed invoice the record is the merchant's own, written by the same oneLineInvoiceRecord the
 * server's signer writes its own with, and the chain commits to its hash. The server checks the hash,
 * amount, token and days before it keeps the record.
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
  const issuedAt = input.chainSeconds
  const dueAt = issuedAt + BigInt(Math.max(0, Math.floor(input.dueDays))) * 86_400n
  const metadata = oneLineInvoiceRecord({
    invoiceNumber: input.invoiceNumber,
    issuedAt,
    dueAt,
    profile: input.profile,
    vault: input.vault,
    customer: input.customer,
    token: input.token,
    amount: input.amount,
    // what the merchant typed, without the spaces around it
    description: input.description.trim(),
    createdBy: "the studio owner's wallet, in the dashboard",
    createdAt: input.now,
  })
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
    customerId: input.customer.id,
    metadata,
  }
}
