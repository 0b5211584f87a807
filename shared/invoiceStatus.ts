/**
 * The one reading of the registry's `Status` enum (contracts/InvoiceRegistry.sol: None, Issued, Paid,
 * Canceled), shared by the server, the page and the merchant's reads, so that no copy of the order can
 * drift from the contract's. A refund leaves an invoice Paid: what was refunded is the registry's
 * `refundedAmount(id)` (the `InvoiceRefunded` event's `refundedTotal`), never a status of its own.
 */
export const invoiceStatuses = ['Issued', 'Paid', 'Canceled'] as const

export type InvoiceStatus = (typeof invoiceStatuses)[number]

/** The enum's value of each status; None (0) is what `invoices(id)` never returns: it reverts instead. */
export const registryStatusOf: Readonly<Record<InvoiceStatus, 1 | 2 | 3>> = { Issued: 1, Paid: 2, Canceled: 3 }

/** The status the registry's number stands for; undefined for None and anything the enum lacks. */
export function invoiceStatusOf(registryStatus: number): InvoiceStatus | undefined {
  return invoiceStatuses[registryStatus - 1]
}
