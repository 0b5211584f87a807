import { type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { devnetKeyScopes } from '../../devnet/seedMerchantAccess'
import { createMerchant, issueInvoice } from '../../devnet/seed'
import { ownerOperationSignature } from '../../shared/merchantVaultMessage'
import { payDirectly } from './payDirectly'
import type { useServer } from './server'
import { signedRequest } from './signedRequest'

type ServerContext = ReturnType<typeof useServer>

export type FreshMerchant = Awaited<ReturnType<typeof createMerchant>> & { studioId: string; apiKey: { keyId: string; secret: string } }

/** A merchant vault of its own, with its studio and an API key holding every scope: what its tests
 * withdraw and refund moves nothing of the demo merchant's, which other files on the devnet use. */
export async function freshMerchant(ctx: ServerContext, name: string): Promise<FreshMerchant> {
  const { devnet, server } = ctx
  const merchant = await createMerchant(devnet.clients, devnet.deployment)
  const studio = await server.stores.studios.createStudio({ name, vaultAddress: merchant.vault, chainId: devnet.deployment.chainId })
  const { keyId, secret } = await server.stores.apiKeys.createApiKey({ studioId: studio.id, name: 'test', scopes: [...devnetKeyScopes] })
  return { ...merchant, studioId: studio.id, apiKey: { keyId, secret } }
}

/** An invoice of `merchant`'s, issued on-chain and paid by a new payer vault: its net lands in the merchant's vault. */
export async function paidInvoice(ctx: ServerContext, merchant: FreshMerchant, amount: bigint) {
  const { devnet } = ctx
  const { timestamp } = await devnet.clients.public.getBlock()
  const { id } = await issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, merchant, { amount, dueAt: timestamp + 86_400n, metaHash: `0x${'42'.repeat(32)}` })
  const { payer } = await payDirectly(devnet, id, amount)
  return { id, amount, payer: payer.vault }
}

export const tokenBalance = (ctx: ServerContext, holder: Address) =>
  ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [holder] })

/** What the owner's wallet does with a prepare's answer: signs the typed message it shows (its
 * integers back from strings), and puts the message's end before the signature as the vault reads it. */
export async function ownerSigns(prepared: { userOp: Record<string, unknown>; typedDataToSign: any }, privateKey: Hex): Promise<Record<string, unknown>> {
  const { domain, types, primaryType, message } = prepared.typedDataToSign
  const typed = Object.fromEntries(
    (types[primaryType] as { name: string; type: string }[]).map(({ name, type }) => [name, type.startsWith('uint') ? BigInt(message[name]) : message[name]]),
  )
  const signature = await privateKeyToAccount(privateKey).signTypedData({ domain, types, primaryType, message: typed })
  return { ...prepared.userOp, signature: ownerOperationSignature(BigInt(message.validUntil), signature) }
}

export const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address

export function merchantCalls(ctx: ServerContext, merchant: () => FreshMerchant) {
  return {
    post: (path: string, body: unknown) => signedRequest(ctx.server.url, merchant().apiKey, { method: 'POST', path, body: JSON.stringify(body) }),
    get: (path: string, query = '') => signedRequest(ctx.server.url, merchant().apiKey, { method: 'GET', path, query }),
  }
}
