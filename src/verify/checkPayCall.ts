import { encodeFunctionData, type Hex } from 'viem'
import type { Deployment } from '../shared/deployment'
import { decodePayCallData, registryPayAbi, vaultExecuteAbi, type PayCall, type PermitSignature } from '../shared/payCall'
import type { PaymentInvoice } from './paymentInvoice'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

export type CheckPayCallParameters = { deployment: Deployment; invoice: PaymentInvoice; permit: PermitSignature }

/** The callData must be exactly vault.execute(registry, 0, registry.pay(invoice, signed permit)). */
export function checkPayCall(callData: Hex, { deployment, invoice, permit }: CheckPayCallParameters): UnsafeProblem[] {
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
  if (!sameAddress(call.registry, deployment.registry)) {
    problems.push({
      code: 'CALL_TARGET_MISMATCH',
      message: `The operation calls ${call.registry}, not the invoice registry ${deployment.registry}.`,
    })
  }
  if (call.value !== 0n) {
    problems.push({
      code: 'CALL_VALUE_NONZERO',
      message: `The operation would also send ${call.value} wei of your native currency.`,
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

function isCanonical(call: PayCall, callData: Hex): boolean {
  try {
    const { permit } = call
    const pay = encodeFunctionData({
      abi: registryPayAbi,
      functionName: 'pay',
      args: [call.invoiceId, permit.deadline, permit.v, permit.r, permit.s],
    })
    const execute = encodeFunctionData({ abi: vaultExecuteAbi, functionName: 'execute', args: [call.registry, call.value, pay] })
    return execute === callData.toLowerCase()
  } catch {
    // a decoded value the ABI cannot re-encode (a v above 255, say) was never canonical
    return false
  }
}

function samePermit(a: PermitSignature, b: PermitSignature): boolean {
  return a.deadline === b.deadline && a.v === b.v && a.r.toLowerCase() === b.r.toLowerCase() && a.s.toLowerCase() === b.s.toLowerCase()
}
