import type { Address } from 'viem'
import type { InvoiceMetadata } from '../../../shared/metadata'
import type { Customer } from '../customers/customerStore'
import type { BusinessProfile } from '../profile/businessProfile'

export type BillingParty = InvoiceMetadata['merchant']

/** The studio's own party on its invoices, from its complete business profile, with its vault as the
 * wallet the pay page checks the record against (the record is shown as verified only when it names
 * the vault the registry pays). */
export function merchantPartyOf(profile: BusinessProfile, vault: Address): BillingParty {
  const { street, city, postal, country } = profile.address
  return {
    name: profile.legalName!,
    email: profile.email!,
    address: { street: street!, city: city!, postal: postal!, country: country! },
    ...(profile.registrationNumber ? { registrationNumber: profile.registrationNumber } : {}),
    ...(profile.vatNumber ? { vatNumber: profile.vatNumber } : {}),
    ...(profile.taxId ? { taxId: profile.taxId } : {}),
    walletAddress: vault,
  }
}

/** The customer as the payer's party of an invoice: the details a bill names its recipient by. */
export function payerPartyOf(customer: Customer): BillingParty {
  return {
    name: customer.legalName,
    email: customer.email,
    address: { ...customer.address },
    ...(customer.registrationNumber ? { registrationNumber: customer.registrationNumber } : {}),
    ...(customer.vatNumber ? { vatNumber: customer.vatNumber } : {}),
    ...(customer.taxId ? { taxId: customer.taxId } : {}),
    ...(customer.walletAddress ? { walletAddress: customer.walletAddress } : {}),
  }
}
