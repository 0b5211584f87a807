import { getAddress, type Address } from 'viem'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { permitTypedData } from '../shared/permit'
import type { PermitToSign } from '../shared/wire'
import { checkPermitShape, pinnedPermitDomain } from './checkPermitShape'
import { isoSeconds } from './checkSponsorship'
import { sameAddress } from './sameAddress'
import { verdict } from './unsafeProblem'
import type { VerifyPermitToSignReturnType } from './verifyPermitToSign'

export type VerifyFundingPermitToSignExpected = {
  /** Pinned in the build; never taken from the server being checked. */
  deployment: PinnedDeployment
  /** The connected account: the vault's owner, whose own funds the permit lets the vault take. */
  account: Address
  vault: Address
  /** The invoice amount less the vault's balance, both read from the chain. */
  shortfall: bigint
  /** The token's nonces(account), read from the chain. */
  nonce: bigint
  /** The deadline of the vault's permit, as verified: the funding permit may not outlive it. */
  permitDeadline: bigint
  /** Milliseconds since the epoch. */
  now: number
}

/**
 * The permit that funds the vault from the payer's own account is the widest thing the payer signs:
 * it lets a contract take from the wallet itself. It must let exactly the payer's own vault take
 * exactly what the vault lacks of the pinned token, from the connected account, no longer than the
 * vault's permit lasts. The wallet signs typed data rebuilt from those values alone.
 */
export function verifyFundingPermitToSign(permitToSign: PermitToSign, expected: VerifyFundingPermitToSignExpected): VerifyPermitToSignReturnType {
  const { message } = permitToSign
  const { deployment, account, vault, shortfall } = expected
  const problems = checkPermitShape(permitToSign, deployment, expected.now)
  if (!sameAddress(message.owner, account)) {
    problems.push({ code: 'FUNDING_OWNER_MISMATCH', message: `The funding permit takes from ${message.owner}, not from your account ${account}.` })
  }
  if (!sameAddress(message.spender, vault)) {
    problems.push({ code: 'FUNDING_SPENDER_MISMATCH', message: `The funding permit lets ${message.spender} take from your wallet, not your vault ${vault}.` })
  }
  if (shortfall <= 0n || BigInt(message.value) !== shortfall) {
    problems.push({
      code: 'FUNDING_AMOUNT_MISMATCH',
      message: `The funding permit allows ${message.value}, but your vault lacks ${shortfall > 0n ? shortfall : 0n} (in the token's smallest unit).`,
    })
  }
  if (BigInt(message.nonce) !== expected.nonce) {
    problems.push({
      code: 'FUNDING_NONCE_MISMATCH',
      message: `The funding permit uses nonce ${message.nonce}, but the token's next permit nonce for your account is ${expected.nonce}.`,
    })
  }
  if (BigInt(message.deadline) > expected.permitDeadline) {
    problems.push({
      code: 'FUNDING_OUTLIVES_PERMIT',
      message: `The funding permit stays valid until ${isoSeconds(Number(message.deadline))}, after the payment permit ends at ${isoSeconds(Number(expected.permitDeadline))}.`,
    })
  }
  return verdict(problems, () => ({
    typedData: permitTypedData(pinnedPermitDomain(deployment), {
      owner: getAddress(account),
      spender: getAddress(vault),
      value: shortfall,
      nonce: expected.nonce,
      deadline: BigInt(message.deadline),
    }),
  }))
}
