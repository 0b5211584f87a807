import type { Stores } from '../server/store/openStores'
import type { ReachableDevnet } from './startDevnet'

export type SeededMerchantAccess = { studioId: string; apiKey: { keyId: string; secret: string } }

/** The demo merchant as a studio owning its vault, with one API key for the merchant routes. */
export async function seedMerchantAccess(stores: Pick<Stores, 'studios' | 'apiKeys'>, devnet: ReachableDevnet): Promise<SeededMerchantAccess> {
  const studio = await stores.studios.createStudio({ name: 'Demo merchant', vaultAddress: devnet.seed.merchant.vault, chainId: devnet.deployment.chainId })
  const { keyId, secret } = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'devnet', scopes: ['invoice:read', 'invoice:write'] })
  return { studioId: studio.id, apiKey: { keyId, secret } }
}
