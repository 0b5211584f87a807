import { zeroHash, type Hex } from 'viem'
import { decodeFundedPayCallData, type FundedPayCall } from '../../shared/fundedPayCall'
import { decodePayCallData, type PayCall, type PermitSignature } from '../../shared/payCall'
import { earliestDeadline } from '../../shared/permit'

/** The permits a pay call carries: the vault's, and the owner account's when the call funds the vault. */
type CarriedPermits = { permit: PermitSignature; funding: PermitSignature | null }

/** The vault payment callData makes, of either form (payInvoice, payInvoiceFromWallet), or null when
 * it is no payment at all. */
export function payCallOf(callData: Hex): PayCall | FundedPayCall | null {
  try {
    return decodePayCallData(callData)
  } catch {
    // not a plain payment: a funded one, or nothing a payment is
  }
  try {
    return decodeFundedPayCallData(callData)
  } catch {
    return null
  }
}

/** Null when callData is no pay call of either form, or a permit in it was never signed. */
export function carriedPermits(callData: Hex): CarriedPermits | null {
  const call = payCallOf(callData)
  if (!call) return null
  const carried = { permit: call.permit, funding: 'funding' in call ? call.funding.permit : null }
  if (!isSigned(carried.permit) || (carried.funding && !isSigned(carried.funding))) return null
  return carried
}

function isSigned(permit: PermitSignature): boolean {
  return permit.r !== zeroHash && permit.s !== zeroHash
}

/** The last second a prepared operation can pay: the earlier of the deadlines of the permits it
 * carries (the paymaster's window ends there too), whether or not it funds the vault. */
export function preparedDeadline(prepared: { permit: PermitSignature; userOp: { callData: Hex } }): bigint {
  return earliestDeadline(prepared.permit, carriedPermits(prepared.userOp.callData)?.funding ?? undefined)
}
