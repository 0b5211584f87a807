import type { Address, Hex } from 'viem'
import { decodeFundedPayCallData, FundedPayCallError, type FundedPayCall, type Funding } from '../../shared/fundedPayCall'
import type { CheckPayCallParameters } from './checkPayCall'
import { checkRegistryPay, samePermit } from './checkRegistryPay'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

/** The funded batch must be exactly [token.permit(account → vault, shortfall), token.transferFrom(
 * account → vault, shortfall), registry.pay(invoice, signed permit)] on the pinned token and registry,
 * with the funding permit the payer signed. */
export function checkFundedPayCall(callData: Hex, parameters: CheckPayCallParameters & { funding: Funding }): UnsafeProblem[] {
  let call: FundedPayCall
  try {
    call = decodeFundedPayCallData(callData)
  } catch (error) {
    // the code says which part of the shape is wrong; the payer needs only to know it is not this payment
    const code = error instanceof FundedPayCallError ? error.code : 'CALLDATA_UNDECODABLE'
    return [{ code, message: 'The operation is not exactly: allow your vault, fund it from your wallet, pay the invoice.' }]
  }
  const { deployment, funding } = parameters
  const problems: UnsafeProblem[] = []
  const expected = [
    ['CALL_TARGET_MISMATCH', 'token', call.token, deployment.token],
    ['FUNDING_OWNER_MISMATCH', 'from', call.funding.from, funding.from],
    ['FUNDING_SPENDER_MISMATCH', 'to', call.funding.to, funding.to],
    ['FUNDING_AMOUNT_MISMATCH', 'amount', call.funding.amount, funding.amount],
  ] as const
  for (const [code, field, got, want] of expected) {
    const same = typeof want === 'bigint' ? got === want : sameAddress(got as Address, want)
    if (!same) problems.push({ code, message: `The funding's ${field} is ${got}, not ${want}.` })
  }
  if (!samePermit(call.funding.permit, funding.permit)) {
    problems.push({ code: 'FUNDING_PERMIT_MISMATCH', message: 'Not the funding permit you signed.' })
  }
  return [...problems, ...checkRegistryPay(call, parameters)]
}
