import { getAddress, type Address } from 'viem'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { permitTypes, type PermitDomain } from '../../shared/permit'
import type { PermitToSign, WireInvoice } from '../../shared/wire'
import { readPermitDomain } from '../chain/permitDomain'
import { PaymentRefusedError } from './paymentRefusedError'
import type { PayDependencies } from './payDependencies'
import { payableInvoice } from './payableInvoice'
import { defaultPermitSeconds } from '../../shared/permit'
import { assertPermitUsable, nowSeconds } from './assertPermitUsable'
import { ownersVault } from './ownersVault'

type PermitFields = { owner: Address; spender: Address; value: string; nonce: bigint; deadline: bigint }

function permitToSign(domain: PermitDomain, { owner, spender, value, nonce, deadline }: PermitFields): PermitToSign {
  return {
    domain,
    types: { Permit: permitTypes.Permit.map((field) => ({ ...field })) },
    primaryType: 'Permit',
    message: { owner, spender, value, nonce: nonce.toString(), deadline: deadline.toString() },
  }
}

/**
 * POST /v1/pay/:id/permit: the EIP-2612 permit the payer vault signs, with the nonce and domain read
 * from the token now. With `fundingFrom` (the vault's owner), also the permit that lets the vault take
 * what it lacks from the owner's account, while it lacks anything.
 */
export async function requestPermit(
  context: PayDependencies,
  { invoiceId, payerAddress, permitDeadline, fundingFrom }: { invoiceId: bigint; payerAddress: Address; permitDeadline?: bigint | undefined; fundingFrom?: Address | undefined },
): Promise<{ permitToSign: PermitToSign; fundingPermitToSign?: PermitToSign; invoice: WireInvoice }> {
  const invoice = await payableInvoice(context, invoiceId)
  const deadline = permitDeadline ?? nowSeconds(context.now) + BigInt(defaultPermitSeconds)
  assertPermitUsable(deadline, context.now)
  const token = invoice.token.address
  const nonceOf = (owner: Address) => context.client.readContract({ address: token, abi: stablecoinAbi, functionName: 'nonces', args: [owner] })
  const [domain, nonce, funding] = await Promise.all([
    readPermitDomain(context.client, token, context.deployment.chainId),
    nonceOf(payerAddress),
    fundingFrom ? fundingNeeded(context, { token, vault: payerAddress, owner: fundingFrom, amount: BigInt(invoice.amount) }) : null,
  ])
  const permit = permitToSign(domain, { owner: payerAddress, spender: context.deployment.registry, value: invoice.amount, nonce, deadline })
  if (!funding || funding.shortfall <= 0n) return { permitToSign: permit, invoice }
  const fundingPermit = permitToSign(domain, { owner: funding.owner, spender: payerAddress, value: funding.shortfall.toString(), nonce: await nonceOf(funding.owner), deadline })
  return { permitToSign: permit, fundingPermitToSign: fundingPermit, invoice }
}

/** What the vault lacks, for its own owner only. */
async function fundingNeeded(context: PayDependencies, { token, vault, owner, amount }: { token: Address; vault: Address; owner: Address; amount: bigint }) {
  const [ownerVault, balance] = await Promise.all([
    ownersVault(context, owner),
    context.client.readContract({ address: token, abi: stablecoinAbi, functionName: 'balanceOf', args: [vault] }),
  ])
  if (getAddress(ownerVault) !== getAddress(vault)) {
    throw new PaymentRefusedError('FUNDING_OWNER_MISMATCH', 'fundingFrom must be the owner of payerAddress: a vault is funded only by its own owner')
  }
  return { owner: getAddress(owner), shortfall: amount - balance }
}
