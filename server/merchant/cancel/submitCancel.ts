import type { Hex } from 'viem'
import { hasCode } from '../../../shared/codedError'
import { readOwnedInvoice } from '../../auth/readOwnedInvoice'
import type { Principal } from '../../auth/principal'
import { BundlerRejectedError } from '../../chain/bundler'
import type { InvoiceReader } from '../../chain/invoiceReader'
import { HttpError } from '../../http/httpError'
import type { InvoiceKey } from '../../store/invoiceKey'
import { assertActiveServerSigner } from '../signer/activeServerSigner'
import { followSessionCall, sendSessionCall, type SessionCallOutcome, type SessionSignerDependencies } from '../signer/sendSessionCall'
import type { CancelAttemptStore } from './cancelAttemptStore'

export type CancelDependencies = {
  signer: SessionSignerDependencies
  attempts: CancelAttemptStore
  invoices: InvoiceReader
  chainId: number
  invoiceKey: (invoiceId: bigint) => InvoiceKey
}

export type SubmitCancelOutcome = { status: 'confirmed'; userOpHash: Hex; txHash: Hex } | { status: 'pending'; userOpHash: Hex }

/** The invoice is not Issued as the chain reads it now: nothing can cancel it (SPEC 3.1). */
function notCancelable(status: string): HttpError {
  const why = status === 'Paid' ? 'it is Paid, and a payment is not undone by a cancel' : 'it is Canceled already'
  return new HttpError(400, 'INVALID_STATUS', `the invoice cannot be canceled: ${why}`, { status })
}

/**
 * SPEC 4.11's server-signed cancel: the invoice's status read from the chain first (only Issued can
 * be canceled), then the invoice's one attempt (cancel_attempts): a new one is sent through the vault
 * by the server's session key, one already sent is followed, never sent twice. Confirmed with the
 * hashes, or pending when the receipt has not come within the wait (the same request repolls it).
 */
export async function submitCancel(dependencies: CancelDependencies, principal: Principal, id: bigint): Promise<SubmitCancelOutcome> {
  const { signer: signing, attempts, invoices } = dependencies
  // the chain's status now, not a cached Issued: the invoice may have been paid a moment ago
  invoices.forget(id)
  const invoice = await readOwnedInvoice(invoices, dependencies.chainId, principal, id)
  if (invoice.status !== 'Issued') throw notCancelable(invoice.status)
  const key = dependencies.invoiceKey(id)

  if (!(await attempts.claim(principal.studio.id, key))) {
    const attempt = await attempts.find(key)
    if (!attempt?.userOpHash) {
      throw new HttpError(409, 'CANCEL_IN_PROGRESS', 'another request is sending this cancel now: repeat this one in a few seconds to follow it')
    }
    const outcome = await settle(dependencies, key, id, () => followSessionCall(signing, attempt.userOpHash!))
    if (outcome.status === 'pending' && (await lapsed(dependencies, principal, attempt.updatedAt))) {
      // dropped before inclusion, and its sponsorship has ended since: it can never be included now
      await attempts.failed(key)
      return submitCancel(dependencies, principal, id)
    }
    return outcome
  }

  const { studio } = principal
  try {
    await assertActiveServerSigner(signing, studio)
  } catch (error) {
    await attempts.failed(key)
    throw error
  }
  let sent = false
  return settle(dependencies, key, id, async () => {
    const outcome = await sendSessionCall(signing, {
      studioId: studio.id,
      vault: studio.vaultAddress,
      prepare: async () => ({ call: { kind: 'Cancel' as const, registry: signing.deployment.registry, invoice: id }, context: null }),
      beforeSend: async (userOpHash) => {
        await attempts.sending(key, userOpHash)
        sent = true
      },
    })
    return outcome
  }).catch(async (error: unknown) => {
    // refused before anything left (quota, a sponsor's or the bundler's refusal): free the claim. An
    // operation that may have left stays recorded, for the next request to follow.
    if (!sent || error instanceof BundlerRejectedError) await attempts.failed(key)
    throw error
  })
}

/** Follows the operation to its outcome and records it: confirmed (the invoice read afresh from
 * then on), still pending, or reverted (failed: a later request may send a new one). */
async function settle(dependencies: CancelDependencies, key: InvoiceKey, id: bigint, follow: () => Promise<SessionCallOutcome>): Promise<SubmitCancelOutcome> {
  let outcome: SessionCallOutcome
  try {
    outcome = await follow()
  } catch (error) {
    if (hasCode(error, 'TRANSACTION_FAILED')) await dependencies.attempts.failed(key)
    throw error
  }
  if (outcome.status === 'pending') return { status: 'pending', userOpHash: outcome.userOpHash }
  await dependencies.attempts.confirmed(key, outcome.txHash)
  dependencies.invoices.forget(id)
  return { status: 'confirmed', userOpHash: outcome.userOpHash, txHash: outcome.txHash }
}

/** Whether an operation sent at `sentAt` and still not included can no longer be: our paymaster's
 * signature on it has expired (a minute's margin for clocks), which the EntryPoint checks. Only for a
 * sponsored vault: an operation paid from the vault's own deposit has no such end. */
async function lapsed(dependencies: CancelDependencies, principal: Principal, sentAt: Date): Promise<boolean> {
  const { signer } = dependencies
  const endsAt = sentAt.getTime() + (signer.sponsorshipWindowSeconds + 60) * 1000
  return endsAt < signer.now() && (await signer.registeredMerchant(principal.studio.vaultAddress))
}
