import { formatUnits, isAddressEqual, type Address } from 'viem'
import { invoiceRegistryAbi } from '../../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../../contracts/artifacts/Stablecoin'
import type { WireInvoice } from '../../../shared/wire'
import type { WireUserOp } from '../../../shared/userOpWire'
import { readOwnedInvoice } from '../../auth/readOwnedInvoice'
import type { Principal } from '../../auth/principal'
import type { InvoiceReader } from '../../chain/invoiceReader'
import { HttpError } from '../../http/httpError'
import type { InvoiceKey } from '../../store/invoiceKey'
import type { WithdrawalStore } from '../withdrawals/withdrawalStore'
import { prepareOwnerCall, readSignedOwnerOperation } from '../signer/ownerOperation'
import { assertVaultOwner } from '../signer/prepareOwnerOperation'
import { reconcilePendingOwnerOperations } from '../signer/reconcilePendingOwnerOperations'
import { followOwnerOperation, sendOwnerOperation, type OwnerOperationOutcome } from '../signer/sendOwnerOperation'
import type { SessionSignerDependencies } from '../signer/sendSessionCall'
import type { RefundSubmission, RefundSubmissionStore } from './refundSubmissionStore'

export type RefundDependencies = {
  signer: SessionSignerDependencies
  invoices: InvoiceReader
  chainId: number
  invoiceKey: (invoiceId: bigint) => InvoiceKey
  refundSubmissions: RefundSubmissionStore
  /** Withdrawals leave the same vault under the same nonce: reconciled before a refund too. */
  withdrawals: WithdrawalStore
}

/** The invoice as the chain says now (a cached status would not do: money is about to move), with
 * what is left to refund: its gross amount less the registry's refundedAmount. Only a Paid invoice
 * of the caller's has anything to refund. */
async function refundable(dependencies: RefundDependencies, principal: Principal, id: bigint): Promise<{ invoice: WireInvoice; payer: Address; refunded: bigint; remaining: bigint }> {
  dependencies.invoices.forget(id)
  const invoice = await readOwnedInvoice(dependencies.invoices, dependencies.chainId, principal, id)
  if (invoice.status !== 'Paid' || !invoice.payer) throw new HttpError(400, 'INVALID_STATUS', `the invoice is ${invoice.status}: only a Paid invoice can be refunded`, { status: invoice.status })
  const { client, deployment } = dependencies.signer
  const refunded = await client.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'refundedAmount', args: [id] })
  return { invoice, payer: invoice.payer, refunded, remaining: BigInt(invoice.amount) - refunded }
}

/** Refused before anything is signed: nothing left, more than is left, or more than the vault holds. */
async function assertRefundable(dependencies: RefundDependencies, principal: Principal, state: { invoice: WireInvoice; remaining: bigint; refunded: bigint }, amount: bigint) {
  const { invoice, remaining, refunded } = state
  if (amount > remaining) {
    throw new HttpError(400, 'REFUND_EXCEEDS_REMAINING', `${amount} is more than is left to refund of this invoice: ${remaining} of its ${invoice.amount} (${refunded} refunded already)`, {
      remaining: remaining.toString(),
      refundedAmount: refunded.toString(),
      amount: invoice.amount,
    })
  }
  const { client } = dependencies.signer
  const balance = await client.readContract({ address: invoice.token.address, abi: stablecoinAbi, functionName: 'balanceOf', args: [principal.studio.vaultAddress] })
  if (amount > balance) {
    throw new HttpError(400, 'INSUFFICIENT_FUNDS', `the vault holds ${balance} base units of the invoice's token, less than the ${amount} to refund: nothing was signed or sent`, {
      available: balance.toString(),
      amount: amount.toString(),
    })
  }
}

const reconcileBeforeWrite = (dependencies: RefundDependencies, principal: Principal) =>
  reconcilePendingOwnerOperations(dependencies.signer, principal.studio, [dependencies.refundSubmissions, dependencies.withdrawals])

/**
 * Our refund (an extension; the SPEC has none): the vault's Refund of `amount` of a Paid invoice,
 * to the payer the registry recorded (the vault and the registry both hold it to exactly that
 * payer), up to the gross amount paid less what was refunded: the fee is the merchant's to bear.
 * Sponsored by our paymaster, with the typed Refund message the owner signs. Nothing is sent.
 */
export async function prepareRefund(dependencies: RefundDependencies, principal: Principal, id: bigint, body: { ownerAddress: Address; amount: bigint }) {
  const { signer } = dependencies
  const { studio } = principal
  const state = await refundable(dependencies, principal, id)
  await assertRefundable(dependencies, principal, state, body.amount)
  await assertVaultOwner(signer, studio.vaultAddress, body.ownerAddress)
  await reconcileBeforeWrite(dependencies, principal)
  const { invoice, payer, refunded, remaining } = state
  const prepared = await prepareOwnerCall(signer, {
    studioId: studio.id,
    vault: studio.vaultAddress,
    call: { kind: 'Refund', registry: signer.deployment.registry, invoice: id, payer, token: invoice.token.address, amount: body.amount },
  })
  return {
    success: true as const,
    userOp: prepared.userOp,
    userOpHash: prepared.userOpHash,
    typedDataToSign: prepared.typedDataToSign,
    expiresAt: prepared.expiresAt,
    refundSummary: {
      invoiceId: id.toString(),
      payer,
      token: invoice.token.address,
      symbol: invoice.token.symbol,
      amount: body.amount.toString(),
      amountFormatted: formatUnits(body.amount, invoice.token.decimals),
      grossAmount: invoice.amount,
      refundedBefore: refunded.toString(),
      remainingAfter: (remaining - body.amount).toString(),
    },
  }
}

export type SubmitRefundOutcome = OwnerOperationOutcome & { refundId: string }

/**
 * The prepared refund, signed by the owner: checked to be this vault's refund of this invoice to its
 * recorded payer, checked again against the chain (another refund or a withdrawal may have come
 * since prepare), recorded before it leaves, then sent. Sent again while pending, it is followed;
 * once confirmed or failed, refused.
 */
export async function submitRefund(dependencies: RefundDependencies, principal: Principal, id: bigint, wire: WireUserOp): Promise<SubmitRefundOutcome> {
  const { signer, refundSubmissions } = dependencies
  const { studio } = principal
  const signed = readSignedOwnerOperation(signer, studio.vaultAddress, wire, 'Refund')
  const call = signed.call as Extract<typeof signed.call, { kind: 'Refund' }>
  if (call.invoice !== id || !isAddressEqual(call.registry, signer.deployment.registry)) {
    throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation does not refund this invoice on this deployment's registry: sign the one refund/prepare returned")
  }
  const earlier = await refundSubmissions.findByUserOpHash(signed.userOpHash)
  // one the EntryPoint rejected (a bad signature) may come back signed by the owner
  if (earlier && !(earlier.status === 'failed' && earlier.failure === 'rejected')) return again(dependencies, earlier)

  const state = await refundable(dependencies, principal, id)
  if (!isAddressEqual(call.payer, state.payer) || !isAddressEqual(call.token, state.invoice.token.address)) {
    throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation refunds someone other than the invoice's payer, or another token")
  }
  await assertRefundable(dependencies, principal, state, call.amount)
  await reconcileBeforeWrite(dependencies, principal)
  const sentAtBlock = await signer.client.getBlockNumber({ cacheTime: 0 })
  const row = await refundSubmissions.begin({
    studioId: studio.id,
    invoice: dependencies.invoiceKey(id),
    payer: call.payer,
    amount: call.amount,
    userOpHash: signed.userOpHash,
    nonce: signed.userOp.nonce,
    validUntil: signed.validUntil,
    sentAtBlock,
  })
  if (!row) return again(dependencies, (await refundSubmissions.findByUserOpHash(signed.userOpHash))!)
  const outcome = await sendOwnerOperation(signer, refundSubmissions, row.id, signed.userOp, signed.userOpHash)
  return { ...outcome, refundId: row.id }
}

async function again(dependencies: RefundDependencies, earlier: RefundSubmission): Promise<SubmitRefundOutcome> {
  if (earlier.status === 'pending') return { ...(await followOwnerOperation(dependencies.signer, dependencies.refundSubmissions, earlier.id, earlier.userOpHash)), refundId: earlier.id }
  throw new HttpError(409, 'ALREADY_SUBMITTED', `this operation was submitted before and is ${earlier.status}: prepare a new refund`, {
    refundId: earlier.id,
    userOpHash: earlier.userOpHash,
    status: earlier.status,
    ...(earlier.txHash ? { txHash: earlier.txHash } : {}),
  })
}

/** What the registry says of the invoice's refunds now, for the answer to a confirmed refund. */
export async function refundedOnChain(dependencies: RefundDependencies, id: bigint): Promise<bigint> {
  const { client, deployment } = dependencies.signer
  return client.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'refundedAmount', args: [id] })
}
