import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { PaymentCall } from '../../wallet/sendPaymentCalls'

/** ABI words written out: every argument here is one static 32-byte word, and viem's encoder (with
 * the selector hashing it brings) would cost the host's wallet bridge 3 KB gzip of its 20 KB budget.
 * The unit test decodes both calls with viem. */
const word = (value: bigint | string) => BigInt(value).toString(16).padStart(64, '0')
/** approve(address,uint256) */
const approveSelector = '0x095ea7b3'
/** InvoiceRegistry.pay(uint256,uint256,uint8,bytes32,bytes32) */
const paySelector = '0x243c079c'

export type PaymentCallsParameters = { deployment: PinnedDeployment; invoiceId: bigint; amount: bigint }

/**
 * The whole payment from a smart account, built from the pinned deployment and the invoice as read
 * from the chain, never from the service: the pinned token's approval of exactly the invoice amount to
 * the pinned registry, then the registry's `pay` of this invoice with an empty permit (the registry
 * tries the permit, which fails, and takes the allowance: contracts/InvoiceRegistry.sol). Sent
 * atomically, the allowance is spent in the same batch and nothing is left approved.
 */
export function paymentCalls({ deployment, invoiceId, amount }: PaymentCallsParameters): PaymentCall[] {
  return [
    { to: deployment.token, data: `${approveSelector}${word(deployment.registry)}${word(amount)}`, value: '0x0' },
    // the deadline, v, r and s of an empty permit: five words, the first the invoice id
    { to: deployment.registry, data: `${paySelector}${word(invoiceId)}${word(0n).repeat(4)}`, value: '0x0' },
  ]
}

/** Whether `calls` (the frame's, over the bridge) are exactly `expected`, call for call. */
export function samePaymentCalls(calls: unknown, expected: PaymentCall[]): boolean {
  if (!Array.isArray(calls) || calls.length !== expected.length) return false
  return expected.every((call, index) => {
    const given = calls[index] as Record<string, unknown> | null
    if (typeof given !== 'object' || given === null) return false
    const keys = Object.keys(given).filter((key) => key !== 'value')
    const value = given.value === undefined ? '0x0' : given.value
    return (
      keys.length === 2 &&
      typeof given.to === 'string' &&
      typeof given.data === 'string' &&
      typeof value === 'string' &&
      given.to.toLowerCase() === call.to.toLowerCase() &&
      given.data.toLowerCase() === call.data.toLowerCase() &&
      BigInt(value) === 0n
    )
  })
}
