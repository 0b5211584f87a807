import type { Deployment } from '../../shared/deployment'
import type { PaymentInvoice } from './paymentInvoice'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

/** An invoice in another token would have the payer authorise a contract the build never vetted. */
export function checkAcceptedToken(invoice: Pick<PaymentInvoice, 'token'>, deployment: Deployment): UnsafeProblem[] {
  if (sameAddress(invoice.token, deployment.token)) return []
  return [
    {
      code: 'TOKEN_NOT_ACCEPTED',
      message: `The invoice asks for token ${invoice.token}, which this checkout does not accept (it accepts ${deployment.token}).`,
    },
  ]
}
