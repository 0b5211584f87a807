import type { Address, Hex } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { Deployment } from '../../shared/deployment'
import type { FundedPayCall, Funding } from '../../shared/fundedPayCall'
import type { PayCall, PermitSignature } from '../../shared/payCall'
import type { PaymentMessage } from '../../shared/paymentMessage'
import { earliestDeadline } from '../../shared/permit'
import { checkGasLimits } from './checkGasLimits'
import { checkOperationNonce } from './checkOperationNonce'
import { checkPayCall } from './checkPayCall'
import { checkSponsorship } from './checkSponsorship'
import type { SponsorshipWindow } from '../../shared/verifyingPaymaster'
import { checkVaultCreation } from './checkVaultCreation'
import { checkAcceptedToken } from './checkAcceptedToken'
import type { PaymentInvoice } from './paymentInvoice'
import { sameAddress } from './sameAddress'
import { verdict, type UnsafeProblem, type Verdict } from './unsafeProblem'
import { verifiedPaymentMessage } from './verifiedPaymentMessage'

export type VerifyUserOperationParameters = {
  /** Pinned in the build; never taken from the server being checked. */
  deployment: PinnedDeployment
  /** As the chain holds it (id, merchant, token, amount): the operation must pay exactly this. */
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

/** `userOpHash` is the operation's hash, computed here; `window` is when the signed operation can
 * execute: what the payer is told, and what decides when "nothing was paid" may be said. `call` is the
 * payment as decoded and verified, and `payment` the message the owner signs for it
 * (verifiedPaymentMessage: the wallet is asked for paymentTypedData(chainId, payment)). */
export type VerifyUserOperationReturnType = Verdict<{
  userOp: UserOperation<'0.7'>
  userOpHash: Hex
  window: SponsorshipWindow
  call: PayCall | FundedPayCall
  payment: PaymentMessage
}>

/**
 * Every byte that goes into the v0.7 userOpHash, decoded and held to the pinned deployment and the
 * chain: sender, nonce (key and sequence), factory fields, callData (exactly this payment of the
 * invoice the chain holds), gas and fees, paymaster and its validity window. `claimedHash`, where someone states one, must be the hash
 * computed here. Runs in the page and, on the host side of the wallet bridge, before a host wallet
 * signs: one verifier in both places. The operation comes back with an empty signature, and with the
 * Payment message built from what was verified here.
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
  const payCall = checkPayCall(userOp.callData, { deployment, invoice, permit: p.permit, funding: p.funding })
  problems.push(
    ...checkOperationNonce(userOp.nonce, p.entryPointNonce),
    ...checkAcceptedToken(invoice, deployment),
    ...payCall.problems,
    ...checkVaultCreation(userOp, { deployment, owner: p.owner, vaultDeployed: p.vaultDeployed }),
    ...checkGasLimits(userOp, deployment.userOpLimits),
    ...sponsorship.problems,
  )
  return verdict(problems, () => {
    // no problems: the call decoded, and the sponsorship's window too
    const call = payCall.call!
    const { message } = verifiedPaymentMessage({ call, vault: p.vault, chainId: deployment.chainId, userOpHash })
    return { userOp, userOpHash, window: sponsorship.window!, call, payment: message }
  })
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
