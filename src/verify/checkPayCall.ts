import type { Hex } from 'viem'
import type { Deployment } from '../../shared/deployment'
import { decodeFundedPayCallData, type FundedPayCall, type Funding } from '../../shared/fundedPayCall'
import { decodePayCallData, PayCallError, type PayCall, type PermitSignature } from '../../shared/payCall'
import { checkFundedPayCall } from './checkFundedPayCall'
import { checkRegistryPay } from './checkRegistryPay'
import type { PaymentInvoice } from './paymentInvoice'
import type { UnsafeProblem } from './unsafeProblem'

export type CheckPayCallParameters = {
  deployment: Deployment
  /** As the chain holds it: the figures the call must name. */
  invoice: PaymentInvoice
  permit: PermitSignature
  /** The funding the payer signed, when the vault is to take what it lacks from the payer's account. */
  funding?: Funding | undefined
}

/** `call` is the decoded payment, present when the bytes are one of the vault's two payments at all;
 * the message the payer signs is built from it, and only once `problems` is empty. */
export type CheckPayCallReturnType = { problems: UnsafeProblem[]; call: PayCall | FundedPayCall | null }

/**
 * The callData must be exactly vault.payInvoice(pinned registry, this invoice, its merchant, token and
 * amount as the chain holds them, the permit signed) or, when the payer signed a funding permit,
 * exactly vault.payInvoiceFromWallet with those and the funding signed. The shared decoders refuse any
 * other function and any bytes that do not re-encode to themselves (trailing data, odd offsets, dirty
 * high bits): nothing in the call escapes the checks below.
 */
export function checkPayCall(callData: Hex, parameters: CheckPayCallParameters): CheckPayCallReturnType {
  const { funding } = parameters
  let call: PayCall | FundedPayCall
  let funded: FundedPayCall | null = null
  try {
    call = funding ? (funded = decodeFundedPayCallData(callData)) : decodePayCallData(callData)
  } catch (error) {
    return { problems: [undecodable(callData, error, funding !== undefined)], call: null }
  }
  const problems = checkRegistryPay(call, parameters)
  if (funding && funded) problems.push(...checkFundedPayCall(funded, funding))
  return { problems, call }
}

function undecodable(callData: Hex, error: unknown, funded: boolean): UnsafeProblem {
  if (error instanceof PayCallError && error.code === 'CALLDATA_NOT_CANONICAL') {
    return { code: 'CALLDATA_NOT_CANONICAL', message: 'The operation carries data beyond the invoice payment.' }
  }
  // the other payment in place of the one the payer signed for: said plainly, since one of them
  // takes from the payer's wallet
  if (funded && decodes(() => decodePayCallData(callData))) {
    return { code: 'CALLDATA_UNDECODABLE', message: 'The operation pays from your vault alone, without the funding from your wallet you signed.' }
  }
  if (!funded && decodes(() => decodeFundedPayCallData(callData))) {
    return { code: 'CALLDATA_UNDECODABLE', message: 'The operation would also take funds from your wallet, which you did not allow.' }
  }
  return { code: 'CALLDATA_UNDECODABLE', message: 'The operation does something other than pay one invoice, so it cannot be checked.' }
}

function decodes(decode: () => unknown): boolean {
  try {
    decode()
    return true
  } catch {
    return false
  }
}
