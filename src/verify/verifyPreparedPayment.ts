import type { Address, Hex } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import type * as z from 'zod/mini'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import type { Deployment } from '../shared/deployment'
import type { PermitSignature } from '../shared/payCall'
import { type prepareResponseSchema } from '../shared/wire'
import { fromWireUserOp } from '../shared/userOpWire'
import { checkPayCall } from './checkPayCall'
import { checkVaultCreation } from './checkVaultCreation'
import { checkGasLimits } from './checkGasLimits'
import { checkOperationNonce } from './checkOperationNonce'
import { checkSponsorship, isoSeconds, type SponsorshipWindow } from './checkSponsorship'
import { checkAcceptedToken, type PaymentInvoice } from './paymentInvoice'
import { sameAddress } from './sameAddress'
import { verdict, type UnsafeProblem, type Verdict } from './unsafeProblem'

export type PrepareResponse = z.infer<typeof prepareResponseSchema>

export type VerifyPreparedPaymentParameters = {
  /** Pinned in the build; never taken from the server being checked. */
  deployment: PinnedDeployment
  invoice: PaymentInvoice
  vault: Address
  owner: Address
  /** Read from the chain by the widget. */
  vaultDeployed: boolean
  /** The permit the payer signed, as signed. */
  permit: PermitSignature
  /** EntryPoint.getNonce(vault, 0), read from the chain. */
  entryPointNonce: bigint
  /** Milliseconds since the epoch. */
  now: number
  prepared: PrepareResponse
}

/** `window` is when the signed operation can execute: what the payer is told, and what decides when
 * the widget may say it can no longer pay. */
export type VerifyPreparedPaymentReturnType = Verdict<{ userOp: UserOperation<'0.7'>; userOpHash: Hex; window: SponsorshipWindow }>

/** Every byte the payer will sign is checked here against what the payer meant to do: the hash the
 * owner signs is the one computed here, not the server's; every field that goes into it is decoded
 * and held to the pinned deployment and the chain. The returned operation carries an empty
 * signature: whatever the server put there (a stub for estimation) is never sent. */
export function verifyPreparedPayment(p: VerifyPreparedPaymentParameters): VerifyPreparedPaymentReturnType {
  const { deployment, invoice, prepared } = p
  const userOp: UserOperation<'0.7'> = { ...fromWireUserOp(prepared.userOp), signature: '0x' }
  const userOpHash = hashUserOp(userOp, deployment)
  const problems: UnsafeProblem[] = [
    ...checkAcceptedToken(invoice, deployment),
    ...checkPreparedInvoice(prepared.invoice, invoice),
  ]
  if (userOpHash !== prepared.userOpHash.toLowerCase()) {
    problems.push({
      code: 'USEROP_HASH_MISMATCH',
      message: 'The operation does not match the fingerprint you would sign on this network, so what you would approve is not what is shown.',
    })
  }
  if (!sameAddress(userOp.sender, p.vault)) {
    problems.push({ code: 'SENDER_MISMATCH', message: `The operation is sent by ${userOp.sender}, not by your vault ${p.vault}.` })
  }
  const sponsorship = checkSponsorship(userOp, { deployment, permitDeadline: p.permit.deadline, now: p.now })
  problems.push(
    ...checkOperationNonce(userOp.nonce, p.entryPointNonce),
    ...checkPayCall(userOp.callData, { deployment, invoice, permit: p.permit }),
    ...checkVaultCreation(userOp, { deployment, owner: p.owner, vaultDeployed: p.vaultDeployed }),
    ...checkGasLimits(userOp, deployment.userOpLimits),
    ...sponsorship.problems,
    ...checkPermitWindow(prepared, p.permit),
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

function checkPreparedInvoice(prepared: PrepareResponse['invoice'], invoice: PaymentInvoice): UnsafeProblem[] {
  const problems: UnsafeProblem[] = []
  if (BigInt(prepared.id) !== invoice.id) {
    problems.push({ code: 'RESPONSE_INVOICE_MISMATCH', message: `The server prepared invoice ${prepared.id} instead of invoice ${invoice.id}.` })
  }
  if (BigInt(prepared.amount) !== invoice.amount) {
    problems.push({
      code: 'AMOUNT_MISMATCH',
      message: `The server prepared a payment of ${prepared.amount} instead of the invoice amount ${invoice.amount} (in the token's smallest unit).`,
    })
  }
  if (!sameAddress(prepared.token.address, invoice.token)) {
    problems.push({ code: 'TOKEN_MISMATCH', message: `The server prepared a payment in token ${prepared.token.address} instead of ${invoice.token}.` })
  }
  return problems
}

/** The permit deadline is when the widget stops waiting for a signed operation and offers a new one
 * (SPEC 4.14 rule 4): a server that says otherwise is not the protocol being checked. */
function checkPermitWindow(prepared: PrepareResponse, permit: PermitSignature): UnsafeProblem[] {
  const problems: UnsafeProblem[] = []
  const deadlineMs = Number(permit.deadline) * 1000
  if (BigInt(prepared.permitDeadline) !== permit.deadline) {
    problems.push({
      code: 'PERMIT_DEADLINE_MISMATCH',
      message: `The server reports a permit valid until ${isoSeconds(prepared.permitDeadline)}, but the permit you signed ends at ${isoSeconds(Number(permit.deadline))}.`,
    })
  }
  // an unreadable date is no bound at all
  if (!(Date.parse(prepared.expiresAt) <= deadlineMs)) {
    problems.push({
      code: 'EXPIRY_AFTER_PERMIT',
      message: `The prepared payment stays valid until ${prepared.expiresAt}, after your permit ends at ${isoSeconds(Number(permit.deadline))}.`,
    })
  }
  return problems
}
