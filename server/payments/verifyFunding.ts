import { isAddressEqual, type Address } from 'viem'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import type { Funding } from '../../shared/fundedPayCall'
import { verifyPermit } from '../chain/verifyPermit'
import { PaymentRefusedError } from './paymentRefusedError'
import { assertPermitUsable } from './assertPermitUsable'
import type { PayDependencies } from './payDependencies'

export type FundingRequest = Omit<Funding, 'to'>

/**
 * The funding permit, held like the vault's permit before anything is sponsored: only the vault's own
 * owner may fund it, with exactly what it lacks (no more can ever sit in the vault from this payment),
 * from a balance that covers it, under a permit the token itself accepts.
 */
export async function verifyFunding(
  context: PayDependencies,
  { funding, owner, vault, shortfall }: { funding: FundingRequest; owner: Address; vault: Address; shortfall: bigint },
): Promise<Funding> {
  const { client, deployment } = context
  if (!isAddressEqual(funding.from, owner)) {
    throw new PaymentRefusedError('FUNDING_OWNER_MISMATCH', 'funding.from must be ownerAddress: a vault is funded only by its own owner')
  }
  // a vault that holds the whole amount takes no funding at all: no amount would be right
  if (shortfall <= 0n) throw new PaymentRefusedError('FUNDING_AMOUNT_MISMATCH', 'the vault already holds the whole amount: prepare without funding')
  if (funding.amount !== shortfall) {
    throw new PaymentRefusedError('FUNDING_AMOUNT_MISMATCH', `funding.amount must be exactly what the vault lacks: ${shortfall} base units`, {
      required: shortfall.toString(),
    })
  }
  assertPermitUsable(funding.permit.deadline, context.now)
  const [balance, permitValid] = await Promise.all([
    client.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [funding.from] }),
    verifyPermit(client, { token: deployment.token, owner: funding.from, spender: vault, value: funding.amount, permit: funding.permit }),
  ])
  if (balance < funding.amount) {
    throw new PaymentRefusedError('INSUFFICIENT_BALANCE', `the account holds ${balance} of the ${funding.amount} base units the vault lacks`, {
      balance: balance.toString(),
      required: funding.amount.toString(),
    })
  }
  if (!permitValid) {
    throw new PaymentRefusedError('FUNDING_PERMIT_INVALID', 'the funding permit does not verify: ownerAddress signs a permit letting payerAddress take funding.amount')
  }
  return { ...funding, to: vault }
}
