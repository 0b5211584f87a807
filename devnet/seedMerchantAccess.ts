import { verifyLogo } from '../server/branding/verifyLogo'
import type { Stores } from '../server/store/openStores'
import { demoBrandColor, demoLogo } from './demoLogo'
import type { ReachableDevnet } from './startDevnet'

export type SeededMerchantAccess = { studioId: string; apiKey: { keyId: string; secret: string } }

/** The demo merchant as a studio owning its vault, with one API key for the merchant routes, and its
 * brand colour and logo, as its merchant would set them (PUT /v1/studios/me/branding): the pay page
 * `npm start` opens shows them. */
export async function seedMerchantAccess(stores: Pick<Stores, 'studios' | 'apiKeys' | 'branding'>, devnet: ReachableDevnet): Promise<SeededMerchantAccess> {
  const studio = await seedMerchantStudio(stores, devnet)
  const { keyId, secret } = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'devnet', scopes: ['invoice:read', 'invoice:write'] })
  await stores.branding.setBranding(studio.id, { brandColor: demoBrandColor, logo: verifyLogo(Buffer.from(demoLogo()).toString('base64')) })
  return { studioId: studio.id, apiKey: { keyId, secret } }
}

/** The demo merchant as a studio of the server (the one already there, if it is): the server sponsors
 * payments only to its own merchants' invoices, so a devnet's payments need it. */
export async function seedMerchantStudio(stores: Pick<Stores, 'studios'>, devnet: Pick<ReachableDevnet, 'seed' | 'deployment'>) {
  const { vault } = devnet.seed.merchant
  const { chainId } = devnet.deployment
  return (await stores.studios.findStudioByVault(chainId, vault)) ?? (await stores.studios.createStudio({ name: 'Demo merchant', vaultAddress: vault, chainId }))
}
