import { getAbiItem, type Address, type Hex, type PublicClient } from 'viem'
import { invoiceRegistryAbi } from '../../../contracts/artifacts/InvoiceRegistry'
import type { IndexedPayment } from './receivedPaymentStore'

/** What a payment settled as: the registry's InvoicePaid event's figures (`event`), or SPEC 2.14's
 * fall-back (`fallback`: gross and net the invoice amount, fee 0) where no event could be read. A
 * fall-back is not proof that no fee was taken: the row says which it is. */
export type PaymentSettlement = { gross: bigint; fee: bigint; net: bigint; feeBps: number | null; transactionHash: Hex | null; source: 'event' | 'fallback' }

export type SettlementChain = { client: PublicClient; registry: Address; fromBlock: bigint }

const invoicePaid = getAbiItem({ abi: invoiceRegistryAbi, name: 'InvoicePaid' })

/**
 * The index keeps each InvoicePaid event's fee, net and rate as the follower read it, so a row
 * normally needs no chain read: gross is fee + net, the event's own split. A row without them (put
 * back from the chain's record after a reorganisation, before its event was applied again) has its
 * event looked up on the chain by the invoice's id; only when that read fails or finds none does the
 * row fall back, and it says so.
 */
export async function paymentSettlement(payment: IndexedPayment, chain: SettlementChain): Promise<PaymentSettlement> {
  if (payment.settledFee !== null && payment.settledNet !== null) {
    return {
      gross: payment.settledFee + payment.settledNet,
      fee: payment.settledFee,
      net: payment.settledNet,
      feeBps: payment.settledFeeBps,
      transactionHash: payment.paidTx,
      source: 'event',
    }
  }
  try {
    const logs = await chain.client.getLogs({ address: chain.registry, event: invoicePaid, args: { id: payment.id }, fromBlock: chain.fromBlock, toBlock: 'latest', strict: true })
    // one payment per invoice: a second log would be another branch's, the last is the chain's now
    const log = logs.at(-1)
    if (log) return { gross: log.args.gross, fee: log.args.fee, net: log.args.net, feeBps: Number(log.args.feeBps), transactionHash: log.transactionHash, source: 'event' }
  } catch {
    // the chain did not answer: the row falls back, flagged, rather than the whole page failing
  }
  return { gross: payment.amount, fee: 0n, net: payment.amount, feeBps: null, transactionHash: payment.paidTx, source: 'fallback' }
}
