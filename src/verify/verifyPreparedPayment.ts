import type { PrepareResponse } from '../api/createPayApi'
import { fromWireUserOp } from '../../shared/userOpWire'
import { earliestDeadline } from '../../shared/permit'
import { isoSeconds } from '../../shared/isoSeconds'
import { checkAcceptedToken } from './checkAcceptedToken'
import type { PaymentInvoice } from './paymentInvoice'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'
import { verifyUserOperation, type VerifyUserOperationParameters, type VerifyUserOperationReturnType } from './verifyUserOperation'


export type VerifyPreparedPaymentParameters = VerifyUserOperationParameters & { prepared: PrepareResponse }

export type VerifyPreparedPaymentReturnType = VerifyUserOperationReturnType

/** POST /prepare's answer: the operation (every byte, by verifyUserOperation, against the hash the
 * service claims) and what the answer says around it. The returned operation carries an empty
 * signature: whatever the server put there (a stub for estimation) is never sent. */
export function verifyPreparedPayment(p: VerifyPreparedPaymentParameters): VerifyPreparedPaymentReturnType {
  const { deployment, invoice, prepared } = p
  const operation = verifyUserOperation(fromWireUserOp(prepared.userOp), p, prepared.userOpHash)
  const problems: UnsafeProblem[] = [
    ...checkAcceptedToken(invoice, deployment),
    ...checkPreparedInvoice(prepared.invoice, invoice),
    ...(operation.ok ? [] : operation.problems),
    ...checkPermitWindow(prepared, p),
  ]
  return problems.length > 0 ? { ok: false, problems } : operation
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
 * (SPEC 4.14 rule 4): a server that says otherwise is not the protocol being checked. A funded payment
 * ends with the earlier of its two permits. */
function checkPermitWindow(prepared: PrepareResponse, signed: Pick<VerifyUserOperationParameters, 'permit' | 'funding'>): UnsafeProblem[] {
  const problems: UnsafeProblem[] = []
  const { permit } = signed
  const lastSecond = earliestDeadline(permit, signed.funding?.permit)
  const deadlineMs = Number(lastSecond) * 1000
  if (BigInt(prepared.permitDeadline) !== permit.deadline) {
    problems.push({
      code: 'PERMIT_DEADLINE_MISMATCH',
      message: `The server reports a permit valid until ${isoSeconds(Number(prepared.permitDeadline))}, but the permit you signed ends at ${isoSeconds(Number(permit.deadline))}.`,
    })
  }
  // an unreadable date is no bound at all
  if (!(Date.parse(prepared.expiresAt) <= deadlineMs)) {
    problems.push({
      code: 'EXPIRY_AFTER_PERMIT',
      message: `The prepared payment stays valid until ${prepared.expiresAt}, after your permit ends at ${isoSeconds(Number(lastSecond))}.`,
    })
  }
  return problems
}
