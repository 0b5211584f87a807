import { getAddress, isAddressEqual, slice, type Address, type Hex, type PublicClient } from 'viem'
import { decodeCall } from '../../shared/abiCall'
import { callSelector } from '../../shared/staticAbiCall'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import type { Deployment } from '../../shared/deployment'
import { invoiceStatusOf } from '../../shared/invoiceStatus'
import { tokenBalanceOfAbi, tokenPermitAbi } from '../../shared/tokenAbi'
import { revertOf } from '../chain/chainErrors'
import { PaymentRefusedError } from './paymentRefusedError'
import { assertPermitUsable } from './assertPermitUsable'
import type { AccountCall } from './decodeAccountCalls'
import { PaymasterRefusedError } from './paymasterRefusedError'

const approveFragment = {
  type: 'function',
  name: 'approve',
  stateMutability: 'nonpayable',
  inputs: [
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
  ],
  outputs: [{ type: 'bool' }],
} as const
const permitFragment = tokenPermitAbi[0]
const payFragment = {
  type: 'function',
  name: 'pay',
  stateMutability: 'nonpayable',
  inputs: [
    { name: 'id', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'v', type: 'uint8' },
    { name: 'r', type: 'bytes32' },
    { name: 's', type: 'bytes32' },
  ],
  outputs: [],
} as const

/** The payment a batch makes, as verified: what the sponsorship is counted under and bounded by. */
export type VerifiedPaymentCalls = {
  invoiceId: bigint
  amount: bigint
  /** Who the invoice pays, as the registry records it. */
  merchant: Address
  /** How the registry may take the amount: an approval, or a permit (whose deadline bounds the window). */
  allowance: { kind: 'approve' } | { kind: 'permit'; deadline: bigint }
}

export type VerifyPaymentCallsParameters = {
  calls: readonly AccountCall[]
  sender: Address
  /** Wall-clock milliseconds. */
  now: () => number
}

const selectorOf = (data: Hex): Hex => (data.length >= 10 ? slice(data, 0, 4) : data)

function decodeOrRefuse<T>(decode: () => T, code: 'NOT_TOKEN_APPROVAL' | 'NOT_REGISTRY_PAY', message: string): T {
  try {
    return decode()
  } catch {
    throw new PaymasterRefusedError(code, message)
  }
}

/**
 * Holds a batch to exactly one payment: the invoice's token let the registry take exactly the invoice
 * amount from the sender (`approve`, or an EIP-2612 `permit` the token accepts now), then the
 * registry's `pay` of an Issued invoice in the token this deployment sponsors, with the sender holding
 * the amount. Every read is of the chain as it is now, not a cache: a payment made a block ago must
 * not be sponsored again. Throws PaymasterRefusedError with the first reason it finds.
 */
export async function verifyPaymentCalls(
  { client, deployment }: { client: PublicClient; deployment: Deployment },
  { calls, sender, now }: VerifyPaymentCallsParameters,
): Promise<VerifiedPaymentCalls> {
  if (calls.length > 2) throw new PaymasterRefusedError('EXTRA_CALL', `the batch makes ${calls.length} calls: only the approval and the payment are sponsored`, { calls: calls.length })
  if (calls.length < 2) throw new PaymasterRefusedError('MISSING_CALL', `the batch makes ${calls.length} call(s): the approval and the payment are sponsored together`, { calls: calls.length })
  const [allow, pay] = calls as [AccountCall, AccountCall]
  if (allow.value !== 0n || pay.value !== 0n) throw new PaymasterRefusedError('CALL_VALUE', 'a sponsored payment sends no ether')

  if (!isAddressEqual(pay.to, deployment.registry) || selectorOf(pay.data) !== callSelector(payFragment)) {
    throw new PaymasterRefusedError('NOT_REGISTRY_PAY', `the second call is not the registry's pay (${deployment.registry})`)
  }
  const [invoiceId] = decodeOrRefuse(() => decodeCall(payFragment, pay.data), 'NOT_REGISTRY_PAY', "the registry's pay call does not decode")

  const invoice = await readInvoice(client, deployment, invoiceId)
  if (invoice.status !== 'Issued') {
    throw new PaymasterRefusedError('INVALID_STATUS', `invoice ${invoiceId} is ${invoice.status} and cannot be paid`, { status: invoice.status })
  }
  const accepted = await client.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'acceptedToken', args: [invoice.token] })
  if (!isAddressEqual(invoice.token, deployment.token) || !accepted) {
    throw new PaymasterRefusedError('TOKEN_NOT_SUPPORTED', `invoice ${invoiceId} is payable in a token this service does not sponsor`)
  }
  if (!isAddressEqual(allow.to, invoice.token)) {
    throw new PaymasterRefusedError('TOKEN_MISMATCH', `the first call is to ${getAddress(allow.to)}, not the invoice's token ${invoice.token}`)
  }

  let allowance: VerifiedPaymentCalls['allowance']
  const selector = selectorOf(allow.data)
  if (selector === callSelector(approveFragment)) {
    const [spender, value] = decodeOrRefuse(() => decodeCall(approveFragment, allow.data), 'NOT_TOKEN_APPROVAL', 'the approval does not decode')
    assertAllowance({ spender, value }, deployment.registry, invoice.amount)
    allowance = { kind: 'approve' }
  } else if (selector === callSelector(permitFragment)) {
    const [owner, spender, value, deadline, v, r, s] = decodeOrRefuse(() => decodeCall(permitFragment, allow.data), 'NOT_TOKEN_APPROVAL', 'the permit does not decode')
    assertAllowance({ spender, value }, deployment.registry, invoice.amount)
    if (!isAddressEqual(owner, sender)) throw new PaymasterRefusedError('PERMIT_INVALID', `the permit is the owner ${getAddress(owner)}'s, not the sender's`)
    try {
      assertPermitUsable(deadline, now)
    } catch (error) {
      if (error instanceof PaymentRefusedError && (error.code === 'PERMIT_EXPIRED' || error.code === 'PERMIT_DEADLINE_TOO_FAR')) throw new PaymasterRefusedError(error.code, error.message)
      throw error
    }
    // a permit the token refuses would revert the whole batch at the paymaster's cost: asked of the token now
    try {
      await client.simulateContract({ account: sender, address: invoice.token, abi: tokenPermitAbi, functionName: 'permit', args: [owner, spender, value, deadline, v, r, s] })
    } catch (error) {
      if (!revertOf(error)) throw error
      throw new PaymasterRefusedError('PERMIT_INVALID', 'the token refuses the permit: sign it again for this invoice')
    }
    allowance = { kind: 'permit', deadline }
  } else {
    throw new PaymasterRefusedError('NOT_TOKEN_APPROVAL', "the first call is not the token's approve or permit")
  }

  const balance = await client.readContract({ address: invoice.token, abi: tokenBalanceOfAbi, functionName: 'balanceOf', args: [sender] })
  if (balance < invoice.amount) {
    throw new PaymasterRefusedError('INSUFFICIENT_BALANCE', `the account holds ${balance} of the ${invoice.amount} base units this invoice needs`, {
      balance: balance.toString(),
      required: invoice.amount.toString(),
    })
  }
  return { invoiceId, amount: invoice.amount, merchant: invoice.merchant, allowance }
}

function assertAllowance({ spender, value }: { spender: Address; value: bigint }, registry: Address, amount: bigint): void {
  if (!isAddressEqual(spender, registry)) throw new PaymasterRefusedError('SPENDER_MISMATCH', `the approval is for ${getAddress(spender)}, not the registry ${registry}`)
  // more would leave an allowance behind after the payment; less cannot pay
  if (value !== amount) {
    throw new PaymasterRefusedError('AMOUNT_MISMATCH', `the approval is for ${value} base units, not the invoice's ${amount}`, { approved: value.toString(), required: amount.toString() })
  }
}

async function readInvoice(client: PublicClient, deployment: Deployment, id: bigint) {
  try {
    const invoice = await client.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
    return { status: invoiceStatusOf(invoice.status) ?? 'None', token: getAddress(invoice.token), amount: invoice.amount, merchant: getAddress(invoice.merchant) }
  } catch (error) {
    if (revertOf(error)) throw new PaymasterRefusedError('INVOICE_NOT_FOUND', `no invoice ${id} in the registry`)
    throw error
  }
}
