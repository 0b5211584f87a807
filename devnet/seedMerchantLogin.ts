import type { Stores } from '../server/store/openStores'
import type { IdentityClient, IdentityUser } from '../server/identity/identityProvider'

/** The demo merchant's sign-in on the devnet's identity provider: devnet-only credentials, written to
 * devnet.json for a developer to type. Never a production account. */
export const demoMerchantUser: IdentityUser = { subject: 'demo-merchant', email: 'merchant@devnet.svc-checkout.test', password: 'devnet-merchant-password', name: 'Demo merchant' }

/** A second devnet user, with no studio: they sign in and provision one through their own wallet
 * (SPEC 4.3), as a merchant new to the service does. Devnet-only credentials, never seeded an owner. */
export const newMerchantUser: IdentityUser = { subject: 'new-merchant', email: 'newmerchant@devnet.local', password: 'devnet-new-merchant-password', name: 'New merchant' }

/** The API's audience on the devnet: a resource indicator must be an absolute URI (RFC 8707). */
export const devnetApiAudience = 'urn:svc-checkout:api'

/** The public client a dashboard, or a developer's script, signs in with (authorization code, S256 PKCE). */
export function devnetIdentityClient(redirectUris: string[]): IdentityClient {
  return { clientId: 'svc-checkout-devnet', redirectUris }
}

/**
 * Makes the demo user the demo studio's owner, as its first sign-in on a real deployment and the
 * studio's provisioning would: POST /v1/auth/login then answers the demo studio, and every owner
 * route (profile, withdrawal address, API keys) is the demo merchant's.
 */
export async function seedMerchantLogin(stores: Pick<Stores, 'users'>, issuer: string, studioId: string, user: IdentityUser = demoMerchantUser): Promise<string> {
  const { user: signedIn } = await stores.users.signIn({ issuer, subject: user.subject, email: user.email })
  await stores.users.makeOwner(signedIn.id, studioId)
  return signedIn.id
}
