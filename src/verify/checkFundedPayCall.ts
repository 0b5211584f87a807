import type { Hex } from 'viem'
import { decodeFundedPayCallData, FundedPayCallError, type FundedPayCall, type Funding } from '../shared/fundedPayCall'
import type { CheckPayCallParameters } from './checkPayCall'
import { checkRegistryPay, samePermit } from './checkRegistryPay'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

const shapeMessages: Record<FundedPayCallError['code'], string> = {
  CALLDATA_UNDECODABLE: 'The operation is not the funded payment you agreed to, so it cannot be checked.',
  CALL_COUNT_MISMATCH: 'The operation makes other calls than funding your vault and paying the invoice.',
  CALL_ORDER_MISMATCH: 'The operation\'s calls are not, in order: allow your vault, fund it, pay the invoice.',
  CALL_VALUE_NONZERO: 'The operation would also send your native currency.',
  FUNDING_INCONSISTENT: 'The operation moves other funds than the funding permit allows.',
  CALLDATA_NOT_CANONICAL: 'The operation carries data beyond the funded payment.',
}

/** The funded batch must be exactly [token.permit(account → vault, shortfall), token.transferFrom(
 * account → vault, shortfall), registry.pay(invoice, signed permit)] on the pinned token and registry,
 * with the funding permit the payer signed. */
export function checkFundedPayCall(callData: Hex, parameters: CheckPayCallParameters & { funding: Funding }): UnsafeProblem[] {
  let call: FundedPayCall
  try {
    call = decodeFundedPayCallData(callData)
  } catch (error) {
    const code = error instanceof FundedPayCallError ? error.code : 'CALLDATA_UNDECODABLE'
    return [{ code, message: shapeMessages[code] }]
  }
  const { deployment, funding } = parameters
  const problems: UnsafeProblem[] = []
  if (!sameAddress(call.token, deployment.token)) {
    problems.push({ code: 'CALL_TARGET_MISMATCH', message: `The operation funds your vault through ${call.token}, not the accepted token ${deployment.token}.` })
  }
  if (!sameAddress(call.funding.from, funding.from)) {
    problems.push({ code: 'FUNDING_OWNER_MISMATCH', message: `The operation takes from ${call.funding.from}, not from your account ${funding.from}.` })
  }
  if (!sameAddress(call.funding.to, funding.to)) {
    problems.push({ code: 'FUNDING_SPENDER_MISMATCH', message: `The operation moves your funds to ${call.funding.to}, not to your vault ${funding.to}.` })
  }
  if (call.funding.amount !== funding.amount) {
    problems.push({ code: 'FUNDING_AMOUNT_MISMATCH', message: `The operation takes ${call.funding.amount} from your wallet instead of ${funding.amount} (in the token's smallest unit).` })
  }
  if (!samePermit(call.funding.permit, funding.permit)) {
    problems.push({ code: 'FUNDING_PERMIT_MISMATCH', message: 'The operation carries a different funding permit from the one you signed.' })
  }
  return [...problems, ...checkRegistryPay(call, parameters)]
}
