import { numberToHex, pad, type Hex } from 'viem'
import type { CheckoutEvents } from '../shared/embedProtocol'
import type { Eip1193Provider } from '../shared/eip1193'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { readInvoice } from '../src/chain/readInvoice'
import { invoicePaidTopic, readSettlement } from '../src/chain/readSettlement'

type Paid = CheckoutEvents['paid']
type ReceiptLog = { address?: string; topics?: readonly string[] }
type Receipt = { transactionHash?: string; status?: string; logs?: readonly ReceiptLog[] }

/** topic0 of the EntryPoint's `UserOperationEvent(bytes32 indexed userOpHash, address indexed sender,
 * address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)`,
 * the same in v0.6 and v0.7; written out (its test recomputes it from the EntryPoint's ABI) so that
 * this module hashes nothing to know it. */
export const userOperationEventTopic: Hex = '0x49628fd1471006c1482da88028e9ce4dbb080b815c9b0344d39e5a8e6ec1419f'

// the registry's Status enum: None, Issued, Paid, Canceled
const paidStatus = 2

/** Why a `paid` was not passed on. `notYet`: the chain may still come to show it (the pinned RPC lags
 * the frame's read, or could not be read); the rest are the chain saying otherwise. */
export type PaidRefusal = 'notYet' | 'notPaid' | 'noPaymentEvent' | 'otherOperation'

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()

/**
 * One look at the pinned chain for the frame's `paid`: the pinned registry records invoice `invoiceId`
 * as Paid, and the transaction named carries that registry's InvoicePaid for it (for a `paid` without
 * a transaction, the one the registry's own event names is looked up and passed on). A `userOpHash`
 * is passed on only when that transaction carries its UserOperationEvent from a pinned EntryPoint.
 * Reads go through `provider`, the build's pinned RPC: never the frame's word, nor the checkout
 * server's, nor the payer's wallet.
 */
export async function readPaid(provider: Eip1193Provider, deployment: PinnedDeployment, claimed: Paid): Promise<Paid | PaidRefusal> {
  const id = BigInt(claimed.invoiceId)
  const record = await readInvoice(provider, deployment, id)
  // an Issued invoice may be a node that has not seen the payment's block yet
  if (!record) return 'notPaid'
  if (record.status !== paidStatus) return record.status === paidStatus - 1 ? 'notYet' : 'notPaid'
  const txHash = claimed.txHash || (await readSettlement(provider, deployment, id))
  if (!txHash) return 'notYet'
  const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [txHash] })) as Receipt | null
  if (!receipt) return 'notYet'
  const logs = receipt.status === '0x1' && same(receipt.transactionHash, txHash) ? (receipt.logs ?? []) : []
  const idTopic = pad(numberToHex(id), { size: 32 })
  const event = (from: string[], topic0: Hex, topic1: string) =>
    logs.some((log) => from.some((address) => same(log.address, address)) && same(log.topics?.[0], topic0) && same(log.topics?.[1], topic1))
  if (!event([deployment.registry], invoicePaidTopic, idTopic)) return 'noPaymentEvent'
  const entryPoints = [deployment.entryPoint, ...(deployment.entryPointV06 ? [deployment.entryPointV06] : [])]
  if (claimed.userOpHash && !event(entryPoints, userOperationEventTopic, claimed.userOpHash)) return 'otherOperation'
  return { invoiceId: claimed.invoiceId, userOpHash: claimed.userOpHash, txHash: txHash.toLowerCase() }
}

export type ConfirmPaidOptions = {
  /** Looks after the first while the chain does not show the payment yet (5). */
  retries?: number
  /** Between looks, in milliseconds (2000). */
  delayMs?: number
}

/**
 * The frame's `paid` as the pinned chain bears it out, or the reason it does not. The frame reads the
 * same chain before it says `paid`, but a pinned RPC behind it (another endpoint, a lagging node) may
 * not show the payment for a block or two: such a `paid` is looked at again a few times; one the chain
 * contradicts is refused at once. A read that fails counts as not yet.
 */
export async function confirmPaid(
  provider: Eip1193Provider,
  deployment: PinnedDeployment,
  claimed: Paid,
  { retries = 5, delayMs = 2000 }: ConfirmPaidOptions = {},
): Promise<Paid | PaidRefusal> {
  for (let attempt = 0; ; attempt++) {
    const seen = await readPaid(provider, deployment, claimed).catch((): PaidRefusal => 'notYet')
    if (seen !== 'notYet' || attempt >= retries) return seen
    await new Promise((resolve) => setTimeout(resolve, delayMs))
  }
}
