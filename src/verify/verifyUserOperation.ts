import type { Address, Hex } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { Deployment } from '../../shared/deployment'
import type { Funding } from '../../shared/fundedPayCall'
import type { PermitSignature } from '../../shared/payCall'
import { earliestDeadline } from '../../shared/permit'
import { checkGasLimits } from './checkGasLimits'
import { checkOperationNonce } from './checkOperationNonce'
import { checkPayCall } from './checkPayCall'
import { checkSponsorship } from './checkSponsorship'
import type { SponsorshipWindow } from '../../shared/verifyingPaymaster'
import { checkVaultCreation } from './checkVaultCreation'
import type { PaymentInvoice } from './paymentInvoice'
import { sameAddress } from './sameAddress'
import { verdict, type UnsafeProblem, type Verdict } from './unsafeProblem'

export type VerifyUserOperationParameters = {
  /** Pinned in the build; never taken from the server being checked. */
  deployment: PinnedDeployment
  invoice: PaymentInvoice
  vault: Address
  owner: Address
  /** Read from the chain. */
  vaultDeployed: boolean
  /** The permit the payer signed, as signed. */
  permit: PermitSignature
  /** When the payer pays from its own account: the funding permit it signed (from = owner, to = vault,
   * amount = what the vault lacked on-chain), as signed. */
  funding?: Funding | undefined
  /** EntryPoint.getNonce(vault, 0), read from the chain. */
  entryPointNonce: bigint
  /** Milliseconds since the epoch. */
  now: number
}

/** `userOpHash` is the hash to sign, computed here; `window` is when the signed operation can
 * execute: what the payer is told, and what decides when "nothing was paid" may be said. */
export type VerifyUserOperationReturnType = Verdict<{ userOp: UserOperation<'0.7'>; userOpHash: Hex; window: SponsorshipWindow }>

/**
 * Every byte that goes into the v0.7 userOpHash, decoded and held to the pinned deployment and the
 * chain: sender, nonce (key and sequence), factory fields, callData (exactly this payment), gas and
 * fees, paymaster and its validity window. `claimedHash`, where someone states one, must be the hash
 * computed here. Runs in the page and, on the host side of the wallet bridge, before a host wallet
 * signs: one verifier in both places. The operation comes back with an empty signature.
 */
export function verifyUserOperation(operation: UserOperation<'0.7'>, p: VerifyUserOperationParameters, claimedHash?: Hex): VerifyUserOperationReturnType {
  const { deployment, invoice } = p
  const userOp: UserOperation<'0.7'> = { ...operation, signature: '0x' }
  const userOpHash = hashUserOp(userOp, deployment)
  const problems: UnsafeProblem[] = []
  if (userOpHash === '0x' || (claimedHash !== undefined && userOpHash !== claimedHash.toLowerCase())) {
    problems.push({
      code: 'USEROP_HASH_MISMATCH',
      message: 'The operation does not match the fingerprint you would sign on this network.',
    })
  }
  if (!sameAddress(userOp.sender, p.vault)) {
    problems.push({ code: 'SENDER_MISMATCH', message: `The operation is sent by ${userOp.sender}, not by your vault ${p.vault}.` })
  }
  const sponsorship = checkSponsorship(userOp, { deployment, permitDeadline: earliestDeadline(p.permit, p.funding?.permit), now: p.now })
  problems.push(
    ...checkOperationNonce(userOp.nonce, p.entryPointNonce),
    ...checkPayCall(userOp.callData, { deployment, invoice, permit: p.permit, funding: p.funding }),
    ...checkVaultCreation(userOp, { deployment, owner: p.owner, vaultDeployed: p.vaultDeployed }),
    ...checkGasLimits(userOp, deployment.userOpLimits),
    ...sponsorship.problems,
  )
  return verdict(problems, () => ({ userOp, userOpHash, window: sponsorship.window! }))
}

/** Lower-case hex; '0x' (which equals no hash) when a field is too wide to pack, as on no operation
 * the EntryPoint would accept. */
function hashUserOp(userOp: UserOperation<'0.7'>, { chainId, entryPoint }: Deployment): Hex {
  try {
    return getUserOperationHash({ chainId, entryPointAddress: entryPoint, entryPointVersion: '0.7', userOperation: userOp })
  } catch {
    return '0x'
  }
}
