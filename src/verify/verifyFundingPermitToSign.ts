import type { Address } from 'viem'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { PermitToSign } from '../../shared/wire'
import { verifyPermitFields } from './verifyPermitFields'
import type { UnsafeProblem } from './unsafeProblem'
import type { VerifyPermitToSignReturnType } from './verifyPermitToSign'

export type VerifyFundingPermitToSignParameters = {
  /** Pinned in the build; never taken from the server being checked. */
  deployment: PinnedDeployment
  /** The connected account: the vault's owner, whose own funds the permit lets the vault take. */
  account: Address
  vault: Address
  /** The invoice amount less the vault's balance, both read from the chain. */
  shortfall: bigint
  /** The token's nonces(account), read from the chain. */
  nonce: bigint
  /** The deadline of the vault's permit, as verified: the funding permit may not outlive it. Unknown
   * where the funding permit is signed first (the wallet bridge holds the vault's to it then). */
  permitDeadline?: bigint
  /** Milliseconds since the epoch. */
  now: number
}

/**
 * The permit that funds the vault from the payer's own account is the widest thing the payer signs:
 * it lets a contract take from the wallet itself. It must let exactly the payer's own vault take
 * exactly what the vault lacks of the pinned token, from the connected account, no longer than the
 * vault's permit lasts. The wallet signs typed data rebuilt from those values alone.
 */
export function verifyFundingPermitToSign(permitToSign: PermitToSign, expected: VerifyFundingPermitToSignParameters): VerifyPermitToSignReturnType {
  const { deployment, account, vault, shortfall, nonce, now } = expected
  const problems: UnsafeProblem[] = []
  // a vault that lacks nothing needs no funding: a permit for any other value is refused below
  if (shortfall <= 0n && BigInt(permitToSign.message.value) === shortfall) problems.push({ code: 'FUNDING_AMOUNT_MISMATCH', message: 'Your vault lacks nothing.' })
  if (expected.permitDeadline !== undefined && BigInt(permitToSign.message.deadline) > expected.permitDeadline) {
    problems.push({ code: 'FUNDING_OUTLIVES_PERMIT', message: 'It outlives the payment permit.' })
  }
  return verifyPermitFields(permitToSign, {
    deployment,
    now,
    expected: { owner: account, spender: vault, value: shortfall, nonce },
    codes: { owner: 'FUNDING_OWNER_MISMATCH', spender: 'FUNDING_SPENDER_MISMATCH', value: 'FUNDING_AMOUNT_MISMATCH', nonce: 'FUNDING_NONCE_MISMATCH' },
    problems,
  })
}
