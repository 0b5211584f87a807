import type { Address, Hex } from 'viem'
import type { InvoiceStatus, WireInvoice } from '../shared/wire'
import { sameAddress } from './sameAddress'
import { verdict, type UnsafeProblem, type Verdict } from './unsafeProblem'

/** The registry's record of an invoice (`invoices(id)`), as far as a payment depends on it. */
export type OnchainInvoice = { merchant: Address; status: number; token: Address; payer: Address; paidAt: bigint; amount: bigint; metaHash: Hex }

// the registry's Status enum after None, which `invoices` never returns (it reverts instead)
const statuses: readonly InvoiceStatus[] = ['Issued', 'Paid', 'Canceled']

/** On success, the server's invoice with the chain's status (and, once Paid, the chain's payer and time). */
export type VerifyOnchainInvoiceReturnType = Verdict<{ invoice: WireInvoice }>

/** Every figure the payer is shown comes from the server; only the registry says what is owed, in
 * which token and to whom. `id` is the invoice the payer opened; `onchain` is null when the registry
 * has no invoice with that id. */
export function verifyOnchainInvoice(id: string, invoice: WireInvoice, onchain: OnchainInvoice | null): VerifyOnchainInvoiceReturnType {
  const status = onchain ? statuses[onchain.status - 1] : undefined
  if (!onchain || !status) return { ok: false, problems: [notOnChain(`The on-chain registry has no invoice ${id}.`)] }
  const differing = [
    // as numbers: an inline mount may spell the id with leading zeros
    BigInt(invoice.id) !== BigInt(id) && 'id',
    !sameAddress(invoice.merchant, onchain.merchant) && 'merchant',
    !sameAddress(invoice.token.address, onchain.token) && 'token',
    BigInt(invoice.amount) !== onchain.amount && 'amount',
    invoice.metaHash.toLowerCase() !== onchain.metaHash.toLowerCase() && 'metaHash',
  ].filter((field) => field !== false)
  const problems =
    differing.length > 0 ? [notOnChain(`The service's invoice differs from invoice ${id} in the on-chain registry in: ${differing.join(', ')}.`)] : []
  const settled = status === 'Paid' ? { status, payer: onchain.payer, paidAt: onchain.paidAt.toString() } : { status }
  return verdict(problems, () => ({ invoice: { ...invoice, ...settled } }))
}

function notOnChain(message: string): UnsafeProblem {
  return { code: 'INVOICE_NOT_ON_CHAIN', message }
}
