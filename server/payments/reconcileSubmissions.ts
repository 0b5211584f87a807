import { randomUUID } from 'node:crypto'
import type { Hex } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { fromWireUserOp } from '../../shared/userOpWire'
import { hasCode } from '../../shared/codedError'
import { receiptFromLogs, type BundlerReceipt } from '../chain/bundler'
import type { Logger } from '../http/logger'
import type { Metrics } from '../ops/metrics'
import type { ClaimedSubmission, ReconcileClaims } from '../store/reconcileClaims'
import type { PayDependencies } from './payDependencies'
import { nowSeconds } from './assertPermitUsable'
import { preparedDeadline } from './carriedPermits'

export type ReconcileParameters = {
  /** How often the loop runs, and how long a checked operation that is still on its way waits for the next look. */
  intervalMs: number
  /** How long a claim holds: an instance killed mid-claim leaves its rows to the others after this. */
  leaseMs: number
  /** How long after its submission an operation is left to its submitter (SUBMIT_WAIT_MS). */
  submittedForMs: number
  /** Where settlement-event searches start (REGISTRY_FROM_BLOCK). */
  fromBlock: bigint
  batchSize?: number
}

type Outcome = 'resubmitted' | 'confirmed' | 'reverted' | 'pending' | 'lost' | 'rejected' | 'unavailable'

/** Too little time left for a resent operation to be included: the bundler would carry it past the
 * permit deadline (which is also the paymaster's validUntil). */
const minRemainingSeconds = 30n

type Reconciler = { claims: ReconcileClaims; metrics: Metrics; logger: Logger; instance: string; options: ReconcileParameters }

/** The receipt, from the bundler or else from the EntryPoint's own log (a bundler that forgot an
 * operation may have included it all the same). */
async function inclusion(context: PayDependencies, claimed: ClaimedSubmission, fromBlock: bigint): Promise<BundlerReceipt | null> {
  const { userOpHash } = claimed.prepared
  return (await context.bundler.receipt(userOpHash, claimed.bundlerRef)) ?? receiptFromLogs(context.client, context.deployment, userOpHash, fromBlock)
}

/** Why the operation can never be included now, or null while it still can. */
async function whyInvalid(context: PayDependencies, { prepared }: ClaimedSubmission): Promise<string | null> {
  if (preparedDeadline(prepared) - nowSeconds(context.now) < minRemainingSeconds) return 'expired'
  context.invoices.forget(prepared.invoice.invoiceId)
  const { invoice } = await context.invoices.read(prepared.invoice.invoiceId)
  if (invoice.status !== 'Issued') return `invoice_${invoice.status.toLowerCase()}`
  const op = fromWireUserOp(prepared.userOp)
  const nonce = await context.client.readContract({
    address: context.deployment.entryPoint,
    abi: entryPoint07Abi,
    functionName: 'getNonce',
    args: [op.sender, 0n],
  })
  return nonce > op.nonce ? 'nonce_used' : null
}

async function reconcileOne(context: PayDependencies, reconciler: Reconciler, claimed: ClaimedSubmission): Promise<Outcome> {
  const { claims, instance, options } = reconciler
  const { userOpHash } = claimed.prepared
  const receipt = await inclusion(context, claimed, options.fromBlock)
  if (receipt) {
    context.invoices.forget(claimed.prepared.invoice.invoiceId)
    if (receipt.success) await context.payments.markConfirmed(userOpHash, receipt.txHash)
    else await context.payments.markFailed(userOpHash, 'reverted')
    return receipt.success ? 'confirmed' : 'reverted'
  }
  if (await context.bundler.knows(userOpHash, claimed.bundlerRef)) return 'pending'
  const invalid = await whyInvalid(context, claimed)
  if (invalid) {
    await claims.markLost(userOpHash, instance)
    reconciler.logger.warn({ userOpHash, reason: invalid }, 'reconciler: a dropped operation can no longer be included')
    return 'lost'
  }
  try {
    // unchanged: the prepared operation with the payer's own signature, as first sent
    const reference = await context.bundler.send(fromWireUserOp({ ...claimed.prepared.userOp, signature: claimed.signature }))
    await claims.markResubmitted(userOpHash, instance, reference)
    reconciler.logger.info({ userOpHash }, 'reconciler: resubmitted an operation the bundler dropped')
    return 'resubmitted'
  } catch (error) {
    if (!hasCode(error, 'USEROP_REJECTED')) throw error
    await context.payments.markFailed(userOpHash, error.name)
    return 'rejected'
  }
}

/** One pass: claims what is due, checks each, gives back what stays unsettled. */
export async function reconcileOnce(context: PayDependencies, reconciler: Reconciler): Promise<Outcome[]> {
  const { claims, instance, options, metrics } = reconciler
  const claimed = await claims.claim({ instance, leaseMs: options.leaseMs, submittedForMs: options.submittedForMs, limit: options.batchSize ?? 50 })
  const outcomes: Outcome[] = []
  for (const submission of claimed) {
    let outcome: Outcome
    try {
      outcome = await reconcileOne(context, reconciler, submission)
    } catch (error) {
      reconciler.logger.warn({ userOpHash: submission.prepared.userOpHash, error: error instanceof Error ? error.name : 'unknown' }, 'reconciler: check failed, retried later')
      outcome = 'unavailable'
    }
    // a row still unsettled waits an interval for its next look, by whichever instance comes first
    if (outcome === 'pending' || outcome === 'resubmitted' || outcome === 'unavailable') await claims.release(submission.prepared.userOpHash as Hex, instance, options.intervalMs)
    metrics.resubmissions.inc({ outcome })
    outcomes.push(outcome)
  }
  metrics.unsettledOperations.set(await claims.countUnsettled())
  return outcomes
}

/**
 * One background loop per instance. Every instance runs one; the database leases make each
 * operation one instance's at a time. `stop` waits for the pass under way, so a draining server
 * closes its database only after it.
 */
export function startReconciler(context: PayDependencies, { claims, metrics, logger, options }: Omit<Reconciler, 'instance'>) {
  const reconciler: Reconciler = { claims, metrics, logger, options, instance: randomUUID() }
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let pass: Promise<unknown> = Promise.resolve()
  const schedule = () => {
    timer = setTimeout(() => {
      pass = reconcileOnce(context, reconciler)
        .catch((error: unknown) => logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'reconciler: pass failed'))
        .finally(() => {
          if (!stopped) schedule()
        })
    }, options.intervalMs)
  }
  schedule()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await pass
    },
  }
}
