import { getAddress, type Address } from 'viem'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { permitTypedData } from '../shared/permit'
import type { PermitToSign } from '../shared/wire'
import { checkAcceptedToken, type PaymentInvoice } from './paymentInvoice'
import { checkPermitShape, pinnedPermitDomain } from './checkPermitShape'
import { sameAddress } from './sameAddress'
import { verdict, type Verdict } from './unsafeProblem'

export type PermitTypedData = ReturnType<typeof permitTypedData>

export type VerifyPermitToSignExpected = {
  /** Pinned in the build; never taken from the server being checked. */
  deployment: PinnedDeployment
  vault: Address
  invoice: PaymentInvoice
  /** The token's nonces(vault), read from the chain: a permit for any other nonce is not the one the
   * token would take next. */
  nonce: bigint
  /** Milliseconds since the epoch, as Date.now(). */
  now: number
}

/** On success, typed data rebuilt from the pinned deployment and the checked fields alone: the wallet
 * signs what was checked, never the server's object with whatever else it carries. */
export type VerifyPermitToSignReturnType = Verdict<{ typedData: PermitTypedData }>

/** An EIP-2612 permit is a spending authorisation: before the payer signs one, it must let exactly the
 * invoice registry take exactly the invoice amount of the accepted token from the payer's vault, for a
 * bounded time, on the pinned chain. */
export function verifyPermitToSign(permitToSign: PermitToSign, expected: VerifyPermitToSignExpected): VerifyPermitToSignReturnType {
  const { message } = permitToSign
  const { deployment, vault, invoice } = expected
  const problems = [...checkAcceptedToken(invoice, deployment), ...checkPermitShape(permitToSign, deployment, expected.now)]
  if (!sameAddress(message.owner, vault)) {
    problems.push({ code: 'OWNER_MISMATCH', message: `The permit spends from ${message.owner}, not from your vault ${vault}.` })
  }
  if (!sameAddress(message.spender, deployment.registry)) {
    problems.push({
      code: 'SPENDER_MISMATCH',
      message: `The permit lets ${message.spender} spend your funds, not the invoice registry ${deployment.registry}.`,
    })
  }
  if (BigInt(message.value) !== invoice.amount) {
    problems.push({
      code: 'AMOUNT_MISMATCH',
      message: `The permit allows ${message.value} instead of the invoice amount ${invoice.amount} (in the token's smallest unit).`,
    })
  }
  if (BigInt(message.nonce) !== expected.nonce) {
    problems.push({
      code: 'PERMIT_NONCE_MISMATCH',
      message: `The permit uses nonce ${message.nonce}, but the token's next permit nonce for your vault is ${expected.nonce}.`,
    })
  }
  return verdict(problems, () => ({
    typedData: permitTypedData(
      pinnedPermitDomain(deployment),
      {
        owner: getAddress(vault),
        spender: getAddress(deployment.registry),
        value: invoice.amount,
        nonce: expected.nonce,
        deadline: BigInt(message.deadline),
      },
    ),
  }))
}
