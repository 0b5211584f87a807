import type { Address, Hex } from 'viem'
import type { Deployment } from '../../shared/deployment'
import { sponsorshipWindowProblems } from '../../shared/sponsorshipWindowProblems'
import { decodeVerifyingPaymasterWindow, type SponsorshipWindow } from '../../shared/verifyingPaymaster'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

export type CheckSponsorshipParameters = {
  deployment: Deployment
  /** The permit deadline the payer signed, in seconds. */
  permitDeadline: bigint
  /** Milliseconds since the epoch. */
  now: number
}

/** The reasons to refuse, and the window decoded from the paymaster's data where it could be. */
export type CheckSponsorshipReturnType = { problems: UnsafeProblem[]; window: SponsorshipWindow | null }

/**
 * The paymaster's data is the operation's real validity window: the vault's own (its Payment's
 * validUntil, the permit deadline) is never earlier, since this window must end by the permit.
 * It must be the pinned VerifyingPaymaster's layout, end no later than the permit (so a held operation
 * cannot pay after the payer was told it lapsed) and be valid now (the window's rule is shared with the
 * server: shared/sponsorshipWindowProblems.ts). Returns the decoded window, or the reasons to refuse.
 */
export function checkSponsorship(
  { paymaster, paymasterData }: { paymaster?: Address | undefined; paymasterData?: Hex | undefined },
  { deployment, permitDeadline, now }: CheckSponsorshipParameters,
): CheckSponsorshipReturnType {
  if (!paymaster) {
    return { problems: [{ code: 'PAYMASTER_MISSING', message: 'The operation is not sponsored: your vault would pay the network fee itself.' }], window: null }
  }
  if (!sameAddress(paymaster, deployment.paymaster)) {
    const message = `The operation is sponsored by ${paymaster}, not by this checkout's paymaster ${deployment.paymaster}.`
    return { problems: [{ code: 'PAYMASTER_MISMATCH', message }], window: null }
  }
  const window = decodeVerifyingPaymasterWindow(paymasterData)
  if (!window) {
    const message = 'The sponsorship data is not the paymaster\'s validity window followed by a 64- or 65-byte signature.'
    return { problems: [{ code: 'PAYMASTER_DATA_MALFORMED', message }], window: null }
  }
  return { problems: sponsorshipWindowProblems(window, { permitDeadline, now }), window }
}
