import { hasCode } from '../../shared/codedError'
import type { Bundler } from '../chain/bundler'
import type { Sponsor } from '../chain/sponsor'
import type { Metrics } from './metrics'

/** Runs `call`, counting a failure before passing it on unchanged. */
async function counting<T>(call: () => Promise<T>, count: (error: unknown) => void): Promise<T> {
  try {
    return await call()
  } catch (error) {
    count(error)
    throw error
  }
}

/** The paymaster, its failures counted: a service that stops sponsoring stops every payment. */
export function countedSponsor(sponsor: Sponsor, errors: Metrics['sponsorshipErrors']): Sponsor {
  return {
    stub: (userOp, window) => counting(() => sponsor.stub(userOp, window), () => errors.inc({ step: 'stub' })),
    sign: (userOp, window) => counting(() => sponsor.sign(userOp, window), () => errors.inc({ step: 'sign' })),
  }
}

function kindOf(error: unknown): string {
  if (hasCode(error, 'USEROP_REJECTED')) return 'rejected'
  if (hasCode(error, 'BUNDLER_UNAVAILABLE')) return 'unavailable'
  // refused before it was sent: the queue in front of the bundler is full
  if (hasCode(error, 'UPSTREAM_BUSY')) return 'busy'
  return 'other'
}

/** The bundler, its failures counted by call and kind: refused operations point at the payers or the
 * server's own building, unavailability at the bundler or the chain. */
export function countedBundler(bundler: Bundler, errors: Metrics['bundlerErrors']): Bundler {
  const count = (call: string) => (error: unknown) => errors.inc({ call, kind: kindOf(error) })
  const { estimate } = bundler
  return {
    ...bundler,
    ...(estimate ? { estimate: (userOp) => counting(() => estimate(userOp), count('estimate')) } : {}),
    send: (userOp) => counting(() => bundler.send(userOp), count('send')),
    receipt: (userOpHash, reference) => counting(() => bundler.receipt(userOpHash, reference), count('receipt')),
    knows: (userOpHash, reference) => counting(() => bundler.knows(userOpHash, reference), count('lookup')),
  }
}
