import { getAddress, isAddressEqual, zeroAddress, type Address } from 'viem'
import type { Context } from 'hono'
import type { AuthEnv } from '../../auth/principal'
import { ValidationError } from '../../http/httpError'
import { apiRoute } from '../../routes/apiRoute'
import { checkCustomerTypeRules } from '../customers/customerTypeRules'
import { isProfileComplete, type BusinessProfile } from '../profile/businessProfile'
import type { BusinessProfileStore, StoredBusinessProfile } from '../profile/businessProfileStore'
import type { WithdrawalAddressStore } from '../withdrawals/withdrawalAddressStore'
import {
  profileRequestSchema,
  profileResponseSchema,
  profileUpdatedResponseSchema,
  studioIdParams,
  withdrawalAddressRequestSchema,
  withdrawalAddressResponseSchema,
} from './accountWire'
import { requireOwner } from './requireOwner'
import { accountsLimit, mounted } from './signInRoutes'

export type StudioSettingsDependencies = {
  businessProfiles: Pick<BusinessProfileStore, 'getBusinessProfile' | 'putBusinessProfile'>
  withdrawalAddresses: Pick<WithdrawalAddressStore, 'find' | 'set'>
}

/** Absent only where no route runs (a document of the routes). */
export type StudioSettingsRoutesDependencies = { studioSettings?: StudioSettingsDependencies }

const profileToWire = (profile: StoredBusinessProfile | null) => (profile ? { ...profile, updatedAt: profile.updatedAt.toISOString() } : null)

/** `me` is the signed-in user's own studio; any other id must be it too. */
function ownerOf(c: Context<AuthEnv>, id: string) {
  const principal = c.get('principal')
  return requireOwner(c, id === 'me' && principal.kind === 'user' ? principal.studio.id : id)
}

const settingsRoute = apiRoute<StudioSettingsRoutesDependencies>()
const policy = { auth: 'merchant', cors: 'none', rateLimits: [accountsLimit], signedInOnly: true } as const
const errors = ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH'] as const
const noStore = { 'Cache-Control': 'no-store' }

/** SPEC 4.2: the owner's business profile (2.2) and withdrawal address (2.3). */
export const studioSettingsRoutes = [
  settingsRoute({
    method: 'get',
    path: '/v1/studios/:id/profile',
    summary: "The studio's business profile, and whether it is complete enough to issue",
    ...policy,
    params: studioIdParams,
    response: { status: 200, schema: profileResponseSchema, description: 'The profile, null before it is first set.', headers: noStore },
    errors,
    async handle({ params }, dependencies, c) {
      const { studio } = ownerOf(c, params.id)
      const profile = await mounted(dependencies.studioSettings).businessProfiles.getBusinessProfile(studio.id)
      return { success: true as const, profile: profileToWire(profile), profileComplete: isProfileComplete(profile) }
    },
  }),
  settingsRoute({
    method: 'put',
    path: '/v1/studios/:id/profile',
    summary: "Replaces the studio's whole business profile",
    description: 'Not a partial update: a field left out is cleared. An entity needs its registration number and may have a trade name; a person may have a tax id.',
    ...policy,
    params: studioIdParams,
    body: profileRequestSchema,
    response: { status: 200, schema: profileUpdatedResponseSchema, description: 'The studio with its new profile.' },
    errors,
    async handle({ params, body }, dependencies, c) {
      const { studio } = ownerOf(c, params.id)
      checkCustomerTypeRules(body.type, { registrationNumber: body.registrationNumber ?? undefined, tradeName: body.tradeName ?? undefined, taxId: body.taxId ?? undefined }, 'create')
      const profile: BusinessProfile = {
        type: body.type,
        legalName: body.legalName,
        email: body.email,
        address: body.address,
        registrationNumber: body.registrationNumber ?? null,
        vatNumber: body.vatNumber ?? null,
        tradeName: body.tradeName ?? null,
        taxId: body.taxId ?? null,
      }
      const stored = await mounted(dependencies.studioSettings).businessProfiles.putBusinessProfile(studio.id, profile)
      return {
        success: true as const,
        studio: {
          id: studio.id,
          name: studio.name,
          displayName: stored.tradeName ?? stored.legalName ?? studio.name ?? '',
          profile: profileToWire(stored),
          profileComplete: isProfileComplete(stored),
        },
      }
    },
  }),
  settingsRoute({
    method: 'get',
    path: '/v1/studios/:id/withdrawal-address',
    summary: 'Where the studio\'s withdrawals may go',
    ...policy,
    params: studioIdParams,
    response: { status: 200, schema: withdrawalAddressResponseSchema, description: 'The address, null before it is first set.', headers: noStore },
    errors,
    async handle({ params }, dependencies, c) {
      const { studio } = ownerOf(c, params.id)
      const current = await mounted(dependencies.studioSettings).withdrawalAddresses.find(studio.id)
      return { success: true as const, address: current?.address ?? null, updatedAt: current?.updatedAt.toISOString() ?? null }
    },
  }),
  settingsRoute({
    method: 'put',
    path: '/v1/studios/:id/withdrawal-address',
    summary: 'Sets where the studio\'s later withdrawals may go',
    description: 'A valid address, not the zero address, not the studio\'s own vault. Moves no funds.',
    ...policy,
    params: studioIdParams,
    body: withdrawalAddressRequestSchema,
    response: { status: 200, schema: withdrawalAddressResponseSchema, description: 'The address now set.' },
    errors,
    async handle({ params, body }, dependencies, c) {
      const { studio } = ownerOf(c, params.id)
      const address: Address = getAddress(body.address)
      if (isAddressEqual(address, zeroAddress)) throw new ValidationError([{ path: 'body.address', message: 'the zero address cannot receive withdrawals' }])
      // a withdrawal to the vault itself would move nothing: always a mistake
      if (isAddressEqual(address, studio.vaultAddress)) throw new ValidationError([{ path: 'body.address', message: "this is the studio's own vault: withdrawals go out of it, to another address" }])
      const set = await mounted(dependencies.studioSettings).withdrawalAddresses.set(studio.id, address)
      return { success: true as const, address: set.address, updatedAt: set.updatedAt.toISOString() }
    },
  }),
]
