import { getAddress, type Address, type Hex } from 'viem'
import { decodeCall, encodeCall } from './abiCall'
import { asTerms, asTuple, fromTerms, PayCallError, reencodes, vaultPayAbi, type PayCall, type PermitSignature } from './payCall'

/** The payer's own account lets its vault take `amount` once (the permit), and the vault takes it. */
export type Funding = { from: Address; to: Address; amount: bigint; permit: PermitSignature }

/** A payment that first takes what the vault lacks from its owner's own account: the vault takes
 * only from its owner (contracts/PayerVault.sol), so the call names the amount and the permit alone. */
export type FundedPayCall = PayCall & { funding: { amount: bigint; permit: PermitSignature } }

/**
 * vault.payInvoiceFromWallet(registry, terms, permit, fromWallet, funding):
 * one call, all or nothing. The vault takes `fromWallet` from its owner through the funding permit
 * (or an allowance someone set by submitting that permit first), then pays as payInvoice does.
 */
export function encodeFundedPayCallData(call: FundedPayCall): Hex {
  return encodeCall(vaultPayAbi[1], [call.registry, asTerms(call), asTuple(call.permit), call.funding.amount, asTuple(call.funding.permit)])
}

/** The one reading of a funded payment, for the server and the widget alike: exactly
 * payInvoiceFromWallet, in bytes that re-encode to themselves. Throws PayCallError otherwise. */
export function decodeFundedPayCallData(callData: Hex): FundedPayCall {
  let call: FundedPayCall
  try {
    const [registry, terms, permit, fromWallet, funding] = decodeCall(vaultPayAbi[1], callData)
    call = { registry: getAddress(registry), ...fromTerms(terms), permit: { ...permit }, funding: { amount: fromWallet, permit: { ...funding } } }
  } catch {
    throw new PayCallError('CALLDATA_UNDECODABLE')
  }
  if (!reencodes(() => encodeFundedPayCallData(call), callData)) throw new PayCallError('CALLDATA_NOT_CANONICAL')
  return call
}
