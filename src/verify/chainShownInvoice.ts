import { getAddress, zeroAddress } from 'viem'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { InvoiceStatus, WireInvoice } from '../../shared/wire'
import type { ChainInvoice, ShownInvoice } from './confirmInvoice'

// the registry's Status enum after None, which `invoices` never returns (it reverts instead)
const statuses: readonly InvoiceStatus[] = ['Issued', 'Paid', 'Canceled']

/**
 * Invoice `id` with every figure the chain records (merchant, amount, due date, metaHash, number,
 * status, payer, times, settlement) in the pinned token; the rest (agent, fees, token URI) is the
 * service's, when it gave an invoice at all. `disproved`: the service's invoice said otherwise, and
 * these figures replace its own. Null when the registry has no invoice with this id.
 */
export function chainShownInvoice(
  id: string,
  { record, txHash }: ChainInvoice,
  deployment: PinnedDeployment,
  server: WireInvoice | null,
  disproved = false,
): ShownInvoice | null {
  const status = record ? statuses[record.status - 1] : undefined
  if (!record || !status) return null
  const paid = status === 'Paid'
  return {
    agent: null,
    tokenURI: '',
    effectiveFeeBps: null,
    settledFee: null,
    settledFeeBps: null,
    ...server,
    id: BigInt(id).toString(),
    merchant: getAddress(record.merchant),
    token: { address: deployment.token, symbol: deployment.tokenSymbol, decimals: deployment.tokenDecimals },
    amount: record.amount.toString(),
    metaHash: record.metaHash,
    dueAt: record.dueAt.toString(),
    invoiceNumber: record.invoiceNumber.toString(),
    issuedAt: record.issuedAt.toString(),
    status,
    payer: paid && record.payer !== zeroAddress ? getAddress(record.payer) : null,
    paidAt: paid ? record.paidAt.toString() : null,
    txHash: paid ? txHash : null,
    confirmed: true,
    ...(disproved ? { disproved: true as const } : {}),
  }
}
