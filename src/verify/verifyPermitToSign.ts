import type { Address } from 'viem'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { permitTypedData } from '../../shared/permit'
import type { PermitToSign } from '../../shared/wire'
import { checkAcceptedToken } from './checkAcceptedToken'
import type { PaymentInvoice } from './paymentInvoice'
import { verifyPermitFields } from './verifyPermitFields'
import type { Verdict } from './unsafeProblem'

export type PermitTypedData = ReturnType<typeof permitTypedData>

export type VerifyPermitToSignParameters = {
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
export function verifyPermitToSign(permitToSign: PermitToSign, expected: VerifyPermitToSignParameters): VerifyPermitToSignReturnType {
  const { deployment, vault, invoice, nonce, now } = expected
  return verifyPermitFields(permitToSign, {
    deployment,
    now,
    expected: { owner: vault, spender: deployment.registry, value: invoice.amount, nonce },
    codes: { owner: 'OWNER_MISMATCH', spender: 'SPENDER_MISMATCH', value: 'AMOUNT_MISMATCH', nonce: 'PERMIT_NONCE_MISMATCH' },
    problems: checkAcceptedToken(invoice, deployment),
  })
}
