import { getAddress } from 'viem'
import type { WireInvoice } from '../../shared/wire'
import { PaymentRefusedError } from './paymentRefusedError'
import type { PayDependencies } from './payDependencies'

/** The invoice as it is now, refused unless it can still be paid with the token this deployment takes,
 * to a merchant this server serves (the only payments it sponsors). A Paid or Canceled invoice is a 400
 * (SPEC 7.2 lists an invalid invoice status there, not under 409). */
export async function payableInvoice(context: PayDependencies, id: bigint): Promise<WireInvoice> {
  const { invoice } = await context.invoices.read(id)
  if (invoice.status !== 'Issued') {
    throw new PaymentRefusedError('INVALID_STATUS', `invoice ${id} is ${invoice.status} and cannot be paid`, { status: invoice.status })
  }
  if (getAddress(invoice.token.address) !== getAddress(context.deployment.token)) {
    throw new PaymentRefusedError('TOKEN_NOT_SUPPORTED', `invoice ${id} is payable in a token this service does not sponsor`)
  }
  if (!(await context.registeredMerchant(getAddress(invoice.merchant)))) {
    throw new PaymentRefusedError('MERCHANT_NOT_REGISTERED', `invoice ${id} was issued by ${getAddress(invoice.merchant)}, which is not a merchant of this service: it sponsors payments to its own merchants only`)
  }
  return invoice
}
