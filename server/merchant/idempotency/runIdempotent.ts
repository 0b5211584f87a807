import type { Hex } from 'viem'
import { hasCode } from '../../../shared/codedError'
import { FinalizationFailedError, submissionUncertain } from './idempotencyErrors'
import type { IdempotencyRecord, IdempotencyScope, IdempotencyStore, Json, Lease } from './idempotencyStore'

/** What the answer says of its key (SPEC 7.4.4): `replayed` is false only for the request that sent
 * the operation; every other request with the key is answered from it. */
export type IdempotencyMetadata = { key: string; replayed: boolean; state: 'confirmed' | 'pending' }

/** SPEC 7.5: no id and no link are invented for an operation not yet on-chain. */
export type PendingAnswer = { status: 'pending'; userOpHash: Hex; message: string; idempotency?: IdempotencyMetadata }

export type Polled = { status: 'pending' } | { status: 'included'; invoiceId: bigint; txHash: Hex }

/**
 * The steps of one invoice-creating operation, which runIdempotent runs at most once each per key:
 * `submit` once ever (or again only when nothing went out), `poll` until the operation is on-chain,
 * `finalize` until it succeeds.
 */
export type IdempotentSteps<Work extends Json, Answer extends { readonly [key: string]: Json }> = {
  /**
   * Builds, signs and sends the operation; `anchor` is the record's creation time (dueDays counts
   * from it). Call `submissionBegins` right before handing the operation to the bundler, with what
   * `poll` and `finalize` will need and, when known, the hash the operation will have: a request
   * that dies while sending then leaves something to look for on-chain. Answer the hash the bundler took.
   */
  submit(run: { anchor: Date; submissionBegins(work: Work, userOpHash?: Hex): Promise<void> }): Promise<{ userOpHash: Hex }>
  /** Waits for the operation as long as a request may wait; `pending` when it is not yet on-chain,
   * or on-chain without its invoice event (SPEC 7.4.6). */
  poll(run: { userOpHash: Hex; work: Work; anchor: Date }): Promise<Polled>
  /** Writes what follows the chain (metadata, share token, email) and answers the 200 body. Runs again
   * on a retry after it failed, so what it writes must be written once whatever it finds. */
  finalize(run: { userOpHash: Hex; invoiceId: bigint; txHash: Hex; work: Work; anchor: Date }): Promise<Answer>
  /** What of the answer the record keeps, and how a replay answers from it: a bearer credential (a
   * share link) must not sit in the record in clear, and a replay must give the link that opens the
   * invoice now, not one revoked since. Absent, the answer is kept and replayed as it is. */
  kept?: { keep(answer: Answer): { readonly [key: string]: Json }; replay(kept: { readonly [key: string]: Json }): Promise<Answer> }
}

export type IdempotentRequest = {
  scope: IdempotencyScope
  /** Undefined: the client sent no key and the deployment lets it; the operation is its own, unrecorded. */
  key: string | undefined
  fingerprint: string
  /** How long this request holds the record (the store's IDEMPOTENCY_LEASE_MS unless given): longer
   * than it waits on the chain and finalizes. */
  leaseMs?: number
  /** Errors from sending that prove nothing went out (the bundler refused the operation): a retry
   * may build it again. Any other error after submission began leaves it uncertain. */
  sentNothing?: (error: unknown) => boolean
}

export type IdempotentAnswer<Answer> = (Answer & { idempotency?: IdempotencyMetadata }) | PendingAnswer

const pendingMessage =
  'the operation was submitted and is not on-chain yet: repeat this request with the same Idempotency-Key and payload to check again'

const refusedByBundler = (error: unknown) => hasCode(error, 'USEROP_REJECTED')

function finalizationFailed(userOpHash: Hex, invoiceId: bigint, txHash: Hex, cause: unknown, keyed = true): FinalizationFailedError {
  const next = keyed
    ? 'retry the same request with the same Idempotency-Key to finish it; it will not be issued again'
    : 'the request carried no Idempotency-Key, so a retry would issue another invoice: reconcile this one with GET /v1/invoices/:id?mode=strong'
  return new FinalizationFailedError(
    `invoice ${invoiceId} was issued on-chain (transaction ${txHash}), but its metadata or share link could not be written: ${next}`,
    { cause, details: { invoiceId: invoiceId.toString(), txHash, userOpHash } },
  )
}

/**
 * Runs an invoice-creating operation under its Idempotency-Key (SPEC 7.4): the first request submits
 * it, a concurrent one is told to wait, a retry continues from where the record stands (repolls a
 * submitted operation, finalizes an included one, replays a confirmed answer), and a key reused for
 * another payload is refused. Every step of the record is in the database, so this holds across
 * instances and across a process killed at any point.
 */
export async function runIdempotent<Work extends Json, Answer extends { readonly [key: string]: Json }>(
  store: IdempotencyStore,
  request: IdempotentRequest,
  steps: IdempotentSteps<Work, Answer>,
): Promise<IdempotentAnswer<Answer>> {
  if (request.key === undefined) return runUnrecorded(steps)
  const key = request.key
  const claim = await store.claim({ scope: request.scope, key, fingerprint: request.fingerprint, leaseMs: request.leaseMs ?? store.leaseMs })
  if (claim.kind === 'confirmed') {
    const stored = claim.record.answer as Answer
    const answer = steps.kept ? await steps.kept.replay(stored) : stored
    return { ...answer, idempotency: { key, replayed: true, state: 'confirmed' } }
  }
  const { lease, record } = claim
  const anchor = record.createdAt
  let replayed = true
  let userOpHash = record.userOpHash
  let work = record.work as Work
  if (record.state === 'started') {
    replayed = false
    ;({ userOpHash, work } = await submitOnce(store, lease, anchor, steps, request.sentNothing ?? refusedByBundler))
  }
  if (!userOpHash) throw new Error(`idempotency record in state ${record.state} has no userOpHash`)
  let included = includedOf(record)
  if (record.state === 'submitting') included = await reconcileUncertain(store, lease, { userOpHash, work, anchor }, steps)
  if (!included) {
    let polled: Polled
    try {
      polled = await steps.poll({ userOpHash, work, anchor })
    } catch (error) {
      await store.releaseSubmitted(lease)
      throw error
    }
    if (polled.status === 'pending') {
      await store.releasePending(lease)
      return { status: 'pending', userOpHash, message: pendingMessage, idempotency: { key, replayed, state: 'pending' } }
    }
    included = { invoiceId: polled.invoiceId, txHash: polled.txHash }
    await store.recordIncluded(lease, included.invoiceId, included.txHash)
  }
  let answer: Answer
  try {
    answer = await steps.finalize({ userOpHash, ...included, work, anchor })
  } catch (error) {
    await store.releaseFinalizationFailed(lease)
    throw finalizationFailed(userOpHash, included.invoiceId, included.txHash, error)
  }
  await store.confirm(lease, steps.kept ? steps.kept.keep(answer) : answer)
  return { ...answer, idempotency: { key, replayed, state: 'confirmed' } }
}

/**
 * A request died, or lost the bundler's answer, while sending an operation whose hash it had kept:
 * found on-chain, it went out, and the operation continues to finalization; not found, it may still
 * be on its way or never have left, and it is never built again (IDEMPOTENCY_SUBMISSION_UNCERTAIN).
 */
async function reconcileUncertain<Work extends Json>(
  store: IdempotencyStore,
  lease: Lease,
  run: { userOpHash: Hex; work: Work; anchor: Date },
  steps: Pick<IdempotentSteps<Work, never>, 'poll'>,
): Promise<{ invoiceId: bigint; txHash: Hex }> {
  let polled: Polled
  try {
    polled = await steps.poll(run)
  } catch (error) {
    await store.releaseUncertain(lease)
    throw error
  }
  if (polled.status === 'pending') {
    await store.releaseUncertain(lease)
    throw submissionUncertain(run.userOpHash)
  }
  await store.recordSubmitted(lease, run.userOpHash)
  await store.recordIncluded(lease, polled.invoiceId, polled.txHash)
  return { invoiceId: polled.invoiceId, txHash: polled.txHash }
}

function includedOf(record: IdempotencyRecord): { invoiceId: bigint; txHash: Hex } | undefined {
  return record.invoiceId !== undefined && record.txHash ? { invoiceId: record.invoiceId, txHash: record.txHash } : undefined
}

/** Sends the operation, the record following each step: begun, then its hash. What an error leaves
 * depends on whether the operation may have gone out. */
async function submitOnce<Work extends Json>(
  store: IdempotencyStore,
  lease: Lease,
  anchor: Date,
  steps: Pick<IdempotentSteps<Work, never>, 'submit'>,
  sentNothing: (error: unknown) => boolean,
): Promise<{ userOpHash: Hex; work: Work }> {
  let work: Work | undefined
  let result: { userOpHash: Hex }
  try {
    result = await steps.submit({
      anchor,
      async submissionBegins(kept, userOpHash) {
        await store.beginSubmission(lease, kept, userOpHash)
        work = kept
      },
    })
  } catch (error) {
    // a transition that found its lease taken over leaves the record to the request that took it
    if (hasCode(error, 'IDEMPOTENCY_LEASE_CONTENTION')) throw error
    if (work === undefined || sentNothing(error)) await store.releaseUnsubmitted(lease)
    else await store.releaseUncertain(lease)
    throw error
  }
  if (work === undefined) throw new Error('submit answered a userOpHash without calling submissionBegins first')
  await store.recordSubmitted(lease, result.userOpHash)
  return { userOpHash: result.userOpHash, work }
}

/** Without a key: the same steps, nothing recorded; dueDays counts from now. */
async function runUnrecorded<Work extends Json, Answer extends { readonly [key: string]: Json }>(steps: IdempotentSteps<Work, Answer>): Promise<IdempotentAnswer<Answer>> {
  const anchor = new Date()
  let work: Work | undefined
  const { userOpHash } = await steps.submit({ anchor, submissionBegins: async (kept) => void (work = kept) })
  if (work === undefined) throw new Error('submit answered a userOpHash without calling submissionBegins first')
  const polled = await steps.poll({ userOpHash, work, anchor })
  if (polled.status === 'pending') {
    // no key to repeat the POST with: the client follows the operation by reading, never by resending
    return { status: 'pending', userOpHash, message: 'the operation was submitted and is not on-chain yet: follow it with GET /v1/invoices?mode=strong' }
  }
  try {
    return await steps.finalize({ userOpHash, invoiceId: polled.invoiceId, txHash: polled.txHash, work, anchor })
  } catch (error) {
    throw finalizationFailed(userOpHash, polled.invoiceId, polled.txHash, error, false)
  }
}
