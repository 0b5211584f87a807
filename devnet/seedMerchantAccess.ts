import { verifyLogo } from '../server/branding/verifyLogo'
import { hasCode } from '../shared/codedError'
import type { Scope } from '../server/auth/scopes'
import type { Customer } from '../server/merchant/customers/customerStore'
import type { BusinessProfile } from '../server/merchant/profile/businessProfile'
import { demoMerchantParty, demoPayerParty } from './demoInvoices'
import type { Stores } from '../server/store/openStores'
import { demoBrandColor, demoLogo } from './demoLogo'
import type { ReachableDevnet } from './startDevnet'

export type SeededMerchantAccess = { studioId: string; apiKey: { keyId: string; secret: string } }

/** Every granular scope (SPEC 5.5): the devnet's key may do all a merchant's backend does. */
export const devnetKeyScopes: readonly Scope[] = ['invoice:read', 'invoice:write', 'customer:read', 'customer:write', 'dashboard:read']

/** The demo studio's business profile (SPEC 2.2), complete: the party its demo invoices name as merchant. */
export const demoBusinessProfile: BusinessProfile = {
  type: 'entity',
  legalName: demoMerchantParty.name,
  email: demoMerchantParty.email,
  address: demoMerchantParty.address,
  registrationNumber: demoMerchantParty.registrationNumber,
  vatNumber: demoMerchantParty.vatNumber,
  tradeName: null,
  taxId: null,
}

/**
 * The demo merchant as a studio owning its vault, with one API key holding every granular scope, a
 * complete business profile so that it may issue, its one customer (the company its demo invoices
 * bill), and its brand colour and logo, as its merchant would set them (PUT /v1/studios/me/branding):
 * the pay page `npm start` opens shows them. Run again on the same studio, it adds a key and keeps the rest.
 */
export async function seedMerchantAccess(
  stores: Pick<Stores, 'studios' | 'apiKeys' | 'branding' | 'businessProfiles' | 'customers'>,
  devnet: ReachableDevnet,
): Promise<SeededMerchantAccess> {
  const studio = await seedMerchantStudio(stores, devnet)
  const { keyId, secret } = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'devnet', scopes: [...devnetKeyScopes] })
  await stores.branding.setBranding(studio.id, { brandColor: demoBrandColor, logo: verifyLogo(Buffer.from(demoLogo()).toString('base64')) })
  await stores.businessProfiles.putBusinessProfile(studio.id, demoBusinessProfile)
  await seedDemoCustomer(stores, studio.id)
  return { studioId: studio.id, apiKey: { keyId, secret } }
}

/** Acme Robotics GmbH, as POST /v1/customers would create it: there from the start, so a newcomer
 * has a customer to issue an invoice to. */
export async function seedDemoCustomer(stores: Pick<Stores, 'customers'>, studioId: string): Promise<Customer> {
  const existing = await stores.customers.findCustomerByName(studioId, demoPayerParty.name)
  if (existing) return existing
  const { name, ...party } = demoPayerParty
  try {
    return await stores.customers.createCustomer(studioId, { type: 'entity', legalName: name, ...party })
  } catch (error) {
    // another seeding of the same studio (tests share a devnet's server) created it first
    const created = hasCode(error, 'CUSTOMER_EXISTS') ? await stores.customers.findCustomerByName(studioId, name) : null
    if (created) return created
    throw error
  }
}

/** The demo merchant as a studio of the server (the one already there, if it is): the server sponsors
 * payments only to its own merchants' invoices, so a devnet's payments need it. */
export async function seedMerchantStudio(stores: Pick<Stores, 'studios'>, devnet: Pick<ReachableDevnet, 'seed' | 'deployment'>) {
  const { vault } = devnet.seed.merchant
  const { chainId } = devnet.deployment
  return (await stores.studios.findStudioByVault(chainId, vault)) ?? (await stores.studios.createStudio({ name: 'Demo merchant', vaultAddress: vault, chainId }))
}
