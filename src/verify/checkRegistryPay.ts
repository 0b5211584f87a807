import type { PayCall, PermitSignature } from '../../shared/payCall'
import type { CheckPayCallParameters } from './checkPayCall'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

/** The registry call every payment ends with: this invoice, with the permit the payer signed. */
export function checkRegistryPay(
  call: { registry: PayCall['registry']; invoiceId: bigint; permit: PermitSignature },
  { deployment, invoice, permit }: CheckPayCallParameters,
): UnsafeProblem[] {
  const problems: UnsafeProblem[] = []
  if (!sameAddress(call.registry, deployment.registry)) {
    problems.push({
      code: 'CALL_TARGET_MISMATCH',
      message: `The operation calls ${call.registry}, not the invoice registry ${deployment.registry}.`,
    })
  }
  if (call.invoiceId !== invoice.id) {
    problems.push({ code: 'INVOICE_ID_MISMATCH', message: `The operation pays invoice ${call.invoiceId}, not invoice ${invoice.id}.` })
  }
  if (!samePermit(call.permit, permit)) {
    problems.push({ code: 'PERMIT_MISMATCH', message: 'The operation carries a different permit from the one you signed.' })
  }
  return problems
}

export function samePermit(a: PermitSignature, b: PermitSignature): boolean {
  return a.deadline === b.deadline && a.v === b.v && a.r.toLowerCase() === b.r.toLowerCase() && a.s.toLowerCase() === b.s.toLowerCase()
}
