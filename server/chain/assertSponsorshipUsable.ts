import type { PublicClient } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { CodedError } from '../../shared/codedError'
import type { Deployment } from '../../shared/deployment'
import { sponsorshipWindowProblems } from '../../shared/sponsorshipWindowProblems'
import { readPaymasterValidation } from './paymasterValidation'
import type { SponsorshipWindow } from '../../shared/verifyingPaymaster'

/** The paymaster service signed a sponsorship a payer must not sign: asking again gets the same. */
export class SponsorshipInvalidError extends CodedError {
  override name = 'SponsorshipInvalidError'
  readonly code = 'PAYMASTER_SPONSORSHIP_INVALID'
}

/**
 * A third party's sponsorship, held to the widget's rule before the operation is handed out: its own
 * paymaster accepts it, and its window ends no later than the permit and has begun. Anything else
 * would reach the payer only to be refused as unsafe. Returns the window it signed.
 */
export async function assertSponsorshipUsable(
  client: PublicClient,
  deployment: Deployment,
  userOp: UserOperation<'0.7'>,
  { permitDeadline, now }: { permitDeadline: bigint; now: number },
): Promise<SponsorshipWindow> {
  const validation = await readPaymasterValidation(client, deployment, userOp)
  if (!validation.accepted) throw new SponsorshipInvalidError(`the paymaster service's sponsorship does not validate: ${validation.reason}`)
  const problems = sponsorshipWindowProblems(validation.window, { permitDeadline, now })
  if (problems.length > 0) {
    throw new SponsorshipInvalidError(`the paymaster service's sponsorship is unusable: ${problems.map((problem) => problem.message).join(' ')}`)
  }
  return validation.window
}
