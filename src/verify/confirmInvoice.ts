import { getAddress, zeroAddress, type Hex } from 'viem'
import type { OnchainInvoice } from '../chain/readInvoice'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { InvoiceStatus, WireInvoice } from '../../shared/wire'
import { sameAddress } from './sameAddress'
import { verdict, type UnsafeProblem, type Verdict } from './unsafeProblem'


/** What the chain says of an invoice: the registry's record (null when it has none with the id) and,
 * once Paid, the transaction whose InvoicePaid event settled it. */
export type ChainInvoice = { record: OnchainInvoice | null; txHash: Hex | null }

/** The invoice as the payer is shown it. `confirmed`: every figure was read from the chain (status,
 * payer, paid time and settlement transaction included) and the token's symbol and decimals are the
 * pinned deployment's; otherwise the figures are the payment service's word and shown as unconfirmed. */
export type ShownInvoice = WireInvoice & {
  confirmed: boolean
  /** The service's invoice differed from the chain's, and these are the chain's figures in its place:
   * the service's document (its metadata) is withdrawn, not shown beside them. */
  disproved?: true
}

// the registry's Status enum after None, which `invoices` never returns (it reverts instead)
const statuses: readonly InvoiceStatus[] = ['Issued', 'Paid', 'Canceled']

function pinnedToken(deployment: PinnedDeployment): WireInvoice['token'] {
  return { address: deployment.token, symbol: deployment.tokenSymbol, decimals: deployment.tokenDecimals }
}

/** The service's invoice before the chain has been read: amounts in the pinned token's units (the
 * service's decimals and symbol are never used), no settlement transaction. */
export function unconfirmedInvoice(server: WireInvoice, deployment: PinnedDeployment): ShownInvoice {
  return { ...server, token: pinnedToken(deployment), txHash: null, confirmed: false }
}

/**
 * Holds the service's invoice to the registry's record of invoice `id`: the same id, merchant, token,
 * amount, metaHash and due date, in the token this build accepts. On success the invoice to show, with
 * status, payer, times and settlement taken from the chain; otherwise the differences, by name.
 */
export function confirmInvoice(id: string, server: WireInvoice, chain: ChainInvoice, deployment: PinnedDeployment): Verdict<{ invoice: ShownInvoice }> {
  const { record } = chain
  const status = record ? statuses[record.status - 1] : undefined
  if (!record || !status) return { ok: false, problems: [{ code: 'INVOICE_NOT_ON_CHAIN', message: `The on-chain registry has no invoice ${id}.` }] }
  const problems: UnsafeProblem[] = []
  if (!sameAddress(record.token, deployment.token)) {
    problems.push({
      code: 'TOKEN_NOT_ACCEPTED',
      message: `The invoice asks for token ${record.token}, which this checkout does not accept (it accepts ${deployment.token}).`,
    })
  }
  const differing = [
    // as numbers: an inline mount may spell the id with leading zeros
    BigInt(server.id) !== BigInt(id) && 'id',
    !sameAddress(server.merchant, record.merchant) && 'merchant',
    !sameAddress(server.token.address, record.token) && 'token',
    BigInt(server.amount) !== record.amount && 'amount',
    server.metaHash.toLowerCase() !== record.metaHash.toLowerCase() && 'metaHash',
    BigInt(server.dueAt) !== record.dueAt && 'dueAt',
  ].filter((field) => field !== false)
  if (differing.length > 0) {
    problems.push({
      code: 'INVOICE_DIFFERS_FROM_CHAIN',
      message: `The service's invoice differs from invoice ${id} in the on-chain registry in: ${differing.join(', ')}.`,
      fields: differing,
    })
  }
  const paid = status === 'Paid'
  return verdict(problems, () => ({
    invoice: {
      ...server,
      id: BigInt(id).toString(),
      merchant: getAddress(record.merchant),
      token: pinnedToken(deployment),
      invoiceNumber: record.invoiceNumber.toString(),
      issuedAt: record.issuedAt.toString(),
      status,
      payer: paid && record.payer !== zeroAddress ? getAddress(record.payer) : null,
      paidAt: paid ? record.paidAt.toString() : null,
      txHash: paid ? chain.txHash : null,
      confirmed: true,
    },
  }))
}
