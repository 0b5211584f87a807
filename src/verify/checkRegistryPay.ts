import type { PayCall, PermitSignature } from '../../shared/payCall'
import type { CheckPayCallParameters } from './checkPayCall'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

/**
 * What every payment call names, held to the pinned deployment and to the invoice as the chain holds
 * it: the registry the vault pays through, this invoice and the merchant's number for it, its
 * merchant, token and amount, the fee rate the registry charges now, and the permit the payer signed. The vault reverts unless the registry holds exactly these figures, but the
 * payer signs a message naming them: they must be this invoice's before the wallet shows them.
 */
export function checkRegistryPay(call: PayCall, { deployment, invoice, permit }: CheckPayCallParameters): UnsafeProblem[] {
  const problems: UnsafeProblem[] = []
  if (!sameAddress(call.registry, deployment.registry)) {
    problems.push({
      code: 'CALL_TARGET_MISMATCH',
      message: `The operation pays through ${call.registry}, not the invoice registry ${deployment.registry}.`,
    })
  }
  if (call.invoiceId !== invoice.id) {
    problems.push({ code: 'INVOICE_ID_MISMATCH', message: `The operation pays invoice ${call.invoiceId}, not invoice ${invoice.id}.` })
  }
  if (call.invoiceNumber !== invoice.invoiceNumber) {
    problems.push({ code: 'INVOICE_NUMBER_MISMATCH', message: `The operation names the merchant's invoice number ${call.invoiceNumber}, not ${invoice.invoiceNumber}.` })
  }
  if (call.feeBps !== invoice.feeBps) {
    problems.push({ code: 'FEE_MISMATCH', message: `The operation names a fee of ${call.feeBps / 100} % to the merchant, not the ${invoice.feeBps / 100} % the registry charges now.` })
  }
  if (!sameAddress(call.merchant, invoice.merchant)) {
    problems.push({ code: 'MERCHANT_MISMATCH', message: `The operation pays ${call.merchant}, not the invoice's merchant ${invoice.merchant}.` })
  }
  // the invoice's token is held to the pinned one on its own (TOKEN_NOT_ACCEPTED): with both, the
  // call pays in the invoice's token
  if (!sameAddress(call.token, deployment.token)) {
    problems.push({ code: 'TOKEN_MISMATCH', message: `The operation pays in token ${call.token}, not in this checkout's token ${deployment.token}.` })
  }
  if (call.amount !== invoice.amount) {
    problems.push({
      code: 'AMOUNT_MISMATCH',
      message: `The operation pays ${call.amount} instead of the invoice amount ${invoice.amount} (in the token's smallest unit).`,
    })
  }
  if (!samePermit(call.permit, permit)) {
    problems.push({ code: 'PERMIT_MISMATCH', message: 'The operation carries a different permit from the one you signed.' })
  }
  return problems
}

export function samePermit(a: PermitSignature, b: PermitSignature): boolean {
  return a.deadline === b.deadline && a.v === b.v && a.r.toLowerCase() === b.r.toLowerCase() && a.s.toLowerCase() === b.s.toLowerCase()
}
