import { zeroHash, type Hex } from 'viem'
import { decodeFundedPayCallData } from '../../shared/fundedPayCall'
import { decodePayCallData, type PermitSignature } from '../../shared/payCall'
import { earliestDeadline } from '../../shared/permit'

/** The permits a pay call carries: the vault's, and the owner account's when the call funds the vault. */
type CarriedPermits = { permit: PermitSignature; funding: PermitSignature | null }

/** Null when callData is no pay call of either form, or a permit in it was never signed. */
export function carriedPermits(callData: Hex): CarriedPermits | null {
  const carried = decodeEither(callData)
  if (!carried || !isSigned(carried.permit) || (carried.funding && !isSigned(carried.funding))) return null
  return carried
}

function decodeEither(callData: Hex): CarriedPermits | null {
  try {
    return { permit: decodePayCallData(callData).permit, funding: null }
  } catch {
    // not a plain execute: a funded batch, or nothing a payment is
  }
  try {
    const { permit, funding } = decodeFundedPayCallData(callData)
    return { permit, funding: funding.permit }
  } catch {
    return null
  }
}

function isSigned(permit: PermitSignature): boolean {
  return permit.r !== zeroHash && permit.s !== zeroHash
}

/** The last second a prepared operation can pay: the earlier of the deadlines of the permits it
 * carries (the paymaster's window ends there too), whether or not it funds the vault. */
export function preparedDeadline(prepared: { permit: PermitSignature; userOp: { callData: Hex } }): bigint {
  return earliestDeadline(prepared.permit, carriedPermits(prepared.userOp.callData)?.funding ?? undefined)
}
