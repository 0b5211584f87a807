import type { Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { hasCode } from '../../../shared/codedError'
import { BundlerRejectedError } from '../../chain/bundler'
import { waitForSessionCall, type SessionSignerDependencies } from './sendSessionCall'
import type { OwnerOperationRows } from './reconcilePendingOwnerOperations'

export type OwnerOperationOutcome = { status: 'confirmed'; userOpHash: Hex; txHash: Hex } | { status: 'pending'; userOpHash: Hex }

/**
 * Sends an owner-signed operation whose row (`rowId`) is recorded as pending, and follows it until
 * its receipt or SUBMIT_WAIT_MS. The row is settled as the chain answers: confirmed; failed when the
 * EntryPoint refused it (the vault's validation: a bare hash, anyone but its owner) or its call
 * reverted; left pending when the bundler could not be reached or the receipt is late, for the next
 * request to reconcile.
 */
export async function sendOwnerOperation(signing: SessionSignerDependencies, rows: Pick<OwnerOperationRows, 'confirmed' | 'failed'>, rowId: string, userOp: UserOperation<'0.7'>, userOpHash: Hex): Promise<OwnerOperationOutcome> {
  let reference: string | undefined
  try {
    reference = await signing.bundler.send(userOp)
  } catch (error) {
    if (error instanceof BundlerRejectedError) await rows.failed(rowId, 'rejected')
    throw error
  }
  // out of the studio's reserved operations (its prepare counted it, and keeps it counted)
  await signing.quota.sent(userOpHash)
  return followOwnerOperation(signing, rows, rowId, userOpHash, reference)
}

/** Follows an operation already sent, settling its row once the chain has it. */
export async function followOwnerOperation(signing: SessionSignerDependencies, rows: Pick<OwnerOperationRows, 'confirmed' | 'failed'>, rowId: string, userOpHash: Hex, reference?: string | null): Promise<OwnerOperationOutcome> {
  try {
    const outcome = await waitForSessionCall(signing, userOpHash, reference)
    if (outcome.status === 'pending') return outcome
    await rows.confirmed(rowId, outcome.txHash)
    return { status: 'confirmed', userOpHash, txHash: outcome.txHash }
  } catch (error) {
    if (hasCode(error, 'TRANSACTION_FAILED')) {
      const details = (error as { details?: { txHash?: Hex } }).details
      await rows.failed(rowId, 'reverted', details?.txHash)
    }
    throw error
  }
}
