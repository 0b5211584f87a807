import { isAddressEqual } from 'viem'
import type { WireInvoice } from '../../shared/wire'
import { InvoiceNotFoundError, type InvoiceReader } from '../chain/invoiceReader'
import type { Principal } from './principal'

/**
 * The invoice, when its on-chain merchant is the caller's studio vault on this chain. Anyone else's
 * invoice throws the very error a missing one does, so no answer tells that it exists.
 */
export async function readOwnedInvoice(invoices: InvoiceReader, chainId: number, principal: Principal, id: bigint): Promise<WireInvoice> {
  const { invoice } = await invoices.read(id)
  const { studio } = principal
  if (studio.chainId !== chainId || !isAddressEqual(invoice.merchant, studio.vaultAddress)) {
    throw new InvoiceNotFoundError(`invoice ${id} does not exist`)
  }
  return invoice
}
