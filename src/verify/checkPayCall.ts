import type { Hex } from 'viem'
import { encodeCall } from '../../shared/abiCall'
import type { Deployment } from '../../shared/deployment'
import type { Funding } from '../../shared/fundedPayCall'
import { decodePayCallData, encodeRegistryPay, vaultExecuteAbi, type PayCall, type PermitSignature } from '../../shared/payCall'
import { checkFundedPayCall } from './checkFundedPayCall'
import { checkRegistryPay } from './checkRegistryPay'
import type { PaymentInvoice } from './paymentInvoice'
import type { UnsafeProblem } from './unsafeProblem'

export type CheckPayCallParameters = {
  deployment: Deployment
  invoice: PaymentInvoice
  permit: PermitSignature
  /** The funding the payer signed, when the vault is to take what it lacks from the payer's account. */
  funding?: Funding | undefined
}

/** The callData must be exactly vault.execute(registry, 0, registry.pay(invoice, signed permit)), or,
 * when the payer signed a funding permit, exactly the funded batch with it. */
export function checkPayCall(callData: Hex, parameters: CheckPayCallParameters): UnsafeProblem[] {
  if (parameters.funding) return checkFundedPayCall(callData, { ...parameters, funding: parameters.funding })
  let call: PayCall
  try {
    call = decodePayCallData(callData)
  } catch {
    return [{ code: 'CALLDATA_UNDECODABLE', message: 'The operation does something other than pay one invoice, so it cannot be checked.' }]
  }
  const problems: UnsafeProblem[] = []
  // ABI decoding ignores trailing bytes and tolerates odd offsets: only a byte-exact re-encoding
  // proves there is nothing in the call that the checks below did not see
  if (!isCanonical(call, callData)) {
    problems.push({ code: 'CALLDATA_NOT_CANONICAL', message: 'The operation carries data beyond the invoice payment.' })
  }
  if (call.value !== 0n) {
    problems.push({
      code: 'CALL_VALUE_NONZERO',
      message: `The operation would also send ${call.value} wei of your native currency.`,
    })
  }
  return [...problems, ...checkRegistryPay(call, parameters)]
}

function isCanonical(call: PayCall, callData: Hex): boolean {
  try {
    return encodeCall(vaultExecuteAbi[0], [call.registry, call.value, encodeRegistryPay(call.invoiceId, call.permit)]) === callData.toLowerCase()
  } catch {
    // a decoded value the ABI cannot re-encode (a v above 255, say) was never canonical
    return false
  }
}
