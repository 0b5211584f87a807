import type { Address } from 'viem'
import type { Deployment } from '../../shared/deployment'
import type { WireInvoice } from '../../shared/wire'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

/** The invoice as the payer saw it before paying: what every later answer is held to. */
export type PaymentInvoice = { id: bigint; amount: bigint; token: Address }

export function paymentInvoice(invoice: WireInvoice): PaymentInvoice {
  return { id: BigInt(invoice.id), amount: BigInt(invoice.amount), token: invoice.token.address }
}

/** An invoice in another token would have the payer authorise a contract the build never vetted. */
export function checkAcceptedToken(invoice: PaymentInvoice, deployment: Deployment): UnsafeProblem[] {
  if (sameAddress(invoice.token, deployment.token)) return []
  return [
    {
      code: 'TOKEN_NOT_ACCEPTED',
      message: `The invoice asks for token ${invoice.token}, which this checkout does not accept (it accepts ${deployment.token}).`,
    },
  ]
}
