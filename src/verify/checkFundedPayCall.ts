import type { FundedPayCall, Funding } from '../../shared/fundedPayCall'
import { samePermit } from './checkRegistryPay'
import type { UnsafeProblem } from './unsafeProblem'

/**
 * What a funded payment adds to the plain one: how much the vault takes from the payer's account, and
 * the funding permit it takes it with. Both must be what the payer signed. From whom and to whom is
 * not in the call: the vault takes only from its own owner, into itself (contracts/PayerVault.sol).
 */
export function checkFundedPayCall(call: FundedPayCall, funding: Funding): UnsafeProblem[] {
  const problems: UnsafeProblem[] = []
  if (call.funding.amount !== funding.amount) {
    problems.push({
      code: 'FUNDING_AMOUNT_MISMATCH',
      message: `The operation takes ${call.funding.amount} from your wallet, not the ${funding.amount} you allowed (in the token's smallest unit).`,
    })
  }
  if (!samePermit(call.funding.permit, funding.permit)) {
    problems.push({ code: 'FUNDING_PERMIT_MISMATCH', message: 'The operation carries a different funding permit from the one you signed.' })
  }
  return problems
}
