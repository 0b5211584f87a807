import type { Address } from 'viem'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { permitTypes } from '../../src/shared/permit'
import type { PermitToSign, WireInvoice } from '../../src/shared/wire'
import { readPermitDomain } from '../chain/permitDomain'
import type { PayContext } from './payContext'
import { payableInvoice } from './payableInvoice'
import { defaultPermitSeconds } from '../../src/shared/permit'
import { assertPermitUsable, nowSeconds } from './assertPermitUsable'

/** POST /v1/pay/:id/permit: the EIP-2612 permit the payer vault signs, with the nonce and domain read
 * from the token now. */
export async function requestPermit(
  context: PayContext,
  { invoiceId, payerAddress, permitDeadline }: { invoiceId: bigint; payerAddress: Address; permitDeadline?: bigint | undefined },
): Promise<{ permitToSign: PermitToSign; invoice: WireInvoice }> {
  const invoice = await payableInvoice(context, invoiceId)
  const deadline = permitDeadline ?? nowSeconds(context.now) + BigInt(defaultPermitSeconds)
  assertPermitUsable(deadline, context.now)
  const token = invoice.token.address
  const [domain, nonce] = await Promise.all([
    readPermitDomain(context.client, token, context.deployment.chainId),
    context.client.readContract({ address: token, abi: stablecoinAbi, functionName: 'nonces', args: [payerAddress] }),
  ])
  return {
    permitToSign: {
      domain,
      types: { Permit: permitTypes.Permit.map((field) => ({ ...field })) },
      primaryType: 'Permit',
      message: {
        owner: payerAddress,
        spender: context.deployment.registry,
        value: invoice.amount,
        nonce: nonce.toString(),
        deadline: deadline.toString(),
      },
    },
    invoice,
  }
}
