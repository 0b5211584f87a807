import type { IdempotencyStore, Json } from './idempotencyStore'
import type { IdempotencyMetadata, IdempotentRequest } from './runIdempotent'

/**
 * Answers a request that sends nothing on-chain under its Idempotency-Key (the client-signed
 * prepare, SPEC 4.10 and 7.4.1): the first request computes the answer, every later one with the key
 * and payload is given that answer, a concurrent one is told to wait, and another payload is refused.
 * A failed computation keeps nothing but the record's time (dueDays' anchor): a retry computes again.
 */
export async function answerIdempotently<Answer extends { readonly [key: string]: Json }>(
  store: IdempotencyStore,
  request: Omit<IdempotentRequest, 'sentNothing'>,
  compute: (run: { anchor: Date }) => Promise<Answer>,
): Promise<Answer & { idempotency?: IdempotencyMetadata }> {
  if (request.key === undefined) return compute({ anchor: new Date() })
  const key = request.key
  const claim = await store.claim({ scope: request.scope, key, fingerprint: request.fingerprint, leaseMs: request.leaseMs ?? store.leaseMs })
  if (claim.kind === 'confirmed') return { ...(claim.record.answer as Answer), idempotency: { key, replayed: true, state: 'confirmed' } }
  let answer: Answer
  try {
    answer = await compute({ anchor: claim.record.createdAt })
  } catch (error) {
    await store.releaseUnsubmitted(claim.lease)
    throw error
  }
  await store.confirm(claim.lease, answer)
  return { ...answer, idempotency: { key, replayed: false, state: 'confirmed' } }
}
