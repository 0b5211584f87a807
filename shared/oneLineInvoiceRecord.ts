import { formatUnits, getAddress, type Address } from 'viem'
import type { InvoiceMetadata } from './metadata'

type BillingParty = InvoiceMetadata['merchant']

/** What a studio's business profile (SPEC 2.2) says of the studio: a field is null until it is set.
 * Issuing requires a complete profile, so every required field is set by the time a record is written. */
export type ProfileDetails = {
  legalName: string | null
  email: string | null
  address: { street: string | null; city: string | null; postal: string | null; country: string | null }
  registrationNumber: string | null
  vatNumber: string | null
  taxId: string | null
}

/** What a customer (SPEC 2.7) says of the person or company billed. */
export type CustomerDetails = {
  legalName: string
  email: string
  address: { street: string; city: string; postal: string; country: string }
  registrationNumber: string | null
  vatNumber: string | null
  taxId: string | null
  walletAddress: string | null
}

/** The registration, VAT and tax numbers a party has: a number never set is left out, not written empty. */
const identifiersOf = ({ registrationNumber, vatNumber, taxId }: Pick<ProfileDetails, 'registrationNumber' | 'vatNumber' | 'taxId'>) => ({
  ...(registrationNumber ? { registrationNumber } : {}),
  ...(vatNumber ? { vatNumber } : {}),
  ...(taxId ? { taxId } : {}),
})

/** The studio's own party, with its vault as the wallet: the pay page shows the record as verified
 * only when it names the vault the registry pays. */
function merchantPartyOf(profile: ProfileDetails, vault: Address): BillingParty {
  const { street, city, postal, country } = profile.address
  return {
    name: profile.legalName ?? '',
    email: profile.email ?? '',
    address: { street: street ?? '', city: city ?? '', postal: postal ?? '', country: country ?? '' },
    ...identifiersOf(profile),
    walletAddress: getAddress(vault),
  }
}

/** The customer as the invoice's payer: the details a bill names its recipient by. */
function payerPartyOf(customer: CustomerDetails): BillingParty {
  return {
    name: customer.legalName,
    email: customer.email,
    address: { ...customer.address },
    ...identifiersOf(customer),
    ...(customer.walletAddress ? { walletAddress: getAddress(customer.walletAddress) } : {}),
  }
}

/** Unix seconds as the UTC day the record writes: the chain's day, the same for every reader. */
export const isoDay = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString().slice(0, 10)

/**
 * The record (SPEC 2.5) of an invoice a studio issues from its dashboard or through its server
 * signer: the studio's profile as the merchant with the vault as its wallet, the customer as the
 * payer, one line for the whole amount. Both write it here, so that an owner-signed invoice and a
 * server-signed one name their parties alike, and the chain commits to the hash of exactly this.
 * A blank description is none: the line is then named after the invoice's number.
 */
export function oneLineInvoiceRecord(input: {
  invoiceNumber: string
  /** Unix seconds. */
  issuedAt: bigint
  /** Unix seconds. */
  dueAt: bigint
  profile: ProfileDetails
  vault: Address
  customer: CustomerDetails
  token: InvoiceMetadata['token']
  /** In the token's base units. */
  amount: bigint
  description: string | undefined
  createdBy: string
  createdAt: Date
}): InvoiceMetadata {
  const amount = formatUnits(input.amount, input.token.decimals)
  const description = input.description?.trim() ? input.description : undefined
  return {
    version: '1.0',
    invoiceNumber: input.invoiceNumber,
    issuedAt: isoDay(input.issuedAt),
    dueAt: isoDay(input.dueAt),
    merchant: merchantPartyOf(input.profile, input.vault),
    payer: payerPartyOf(input.customer),
    token: input.token,
    amount,
    amountRaw: input.amount.toString(),
    lineItems: [{ description: description ?? `Invoice ${input.invoiceNumber}`, quantity: 1, unitPrice: amount, amount }],
    createdBy: input.createdBy,
    createdAt: input.createdAt.toISOString(),
    ...(description ? { description } : {}),
  }
}
