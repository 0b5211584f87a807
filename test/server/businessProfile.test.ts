import { randomBytes } from 'node:crypto'
import { privateKeyToAddress } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import { isProfileComplete, missingProfileFields, type BusinessProfile } from '../../server/merchant/profile/businessProfile'
import { createBusinessProfileStore } from '../../server/merchant/profile/businessProfileStore'
import { assertProfileComplete } from '../../server/merchant/profile/profileIncompleteError'
import { answerFor } from '../../server/http/errorHandler'
import type { Database } from '../../server/store/database'
import { createStudioStore } from '../../server/store/studioStore'
import { useDatabases } from '../support/postgres'

const northwind: BusinessProfile = {
  type: 'entity',
  legalName: 'Northwind Studio Ltd',
  email: 'billing@northwind.example',
  address: { street: '12 Harbour Row', city: 'Bristol', postal: 'BS1 5DB', country: 'GB' },
  registrationNumber: '09876543',
  vatNumber: 'GB123456789',
  tradeName: null,
  taxId: null,
}

const freelancer: BusinessProfile = {
  type: 'person',
  legalName: 'Ada Lovelace',
  email: 'ada@engines.example',
  address: { street: '1 Rue de Rivoli', city: 'Paris', postal: '75001', country: 'FR' },
  registrationNumber: null,
  vatNumber: null,
  tradeName: null,
  taxId: '12 345 678 901',
}

describe('the business profile completeness rule (SPEC 2.2)', () => {
  test('default: an entity with type, legal name, email, whole address and registration number is complete; so is a person without one', () => {
    expect(missingProfileFields(northwind)).toEqual([])
    expect(isProfileComplete(northwind)).toBe(true)
    expect(isProfileComplete(freelancer)).toBe(true)
    expect(isProfileComplete({ ...northwind, vatNumber: null })).toBe(true)
  })

  test('behavior: each missing or invalid required field is named, and makes the profile incomplete', () => {
    const cases: [BusinessProfile, string][] = [
      [{ ...northwind, type: null }, 'type'],
      [{ ...northwind, legalName: '  ' }, 'legalName'],
      [{ ...northwind, email: null }, 'email'],
      [{ ...northwind, email: 'billing at northwind' }, 'email'],
      [{ ...northwind, address: { ...northwind.address, street: null } }, 'address.street'],
      [{ ...northwind, address: { ...northwind.address, city: '' } }, 'address.city'],
      [{ ...northwind, address: { ...northwind.address, postal: null } }, 'address.postal'],
      [{ ...northwind, address: { ...northwind.address, country: 'UK' } }, 'address.country'],
      [{ ...northwind, address: { ...northwind.address, country: null } }, 'address.country'],
      [{ ...northwind, registrationNumber: null }, 'registrationNumber'],
      [{ ...northwind, registrationNumber: ' ' }, 'registrationNumber'],
    ]
    for (const [profile, field] of cases) {
      expect(missingProfileFields(profile), field).toEqual([field])
      expect(isProfileComplete(profile), field).toBe(false)
    }
    expect(isProfileComplete(null)).toBe(false)
    expect(missingProfileFields(null)).toEqual(['type', 'legalName', 'email', 'address', 'registrationNumber'])
  })

  test('behavior: issuance is refused with PROFILE_INCOMPLETE, a 400 that names what to complete', () => {
    expect(() => assertProfileComplete(northwind)).not.toThrow()
    let refusal: unknown
    try {
      assertProfileComplete({ ...northwind, email: 'nope', registrationNumber: null })
    } catch (error) {
      refusal = error
    }
    const answer = answerFor(refusal)
    expect(answer).toMatchObject({ status: 400, code: 'PROFILE_INCOMPLETE', details: { missing: ['email', 'registrationNumber'] } })
  })
})

describe('the business profile store (migration 12)', () => {
  const databases = useDatabases()
  let db: Database
  let studioId: string
  beforeAll(async () => {
    db = await databases.open('pglite')
    const studio = await createStudioStore(db).createStudio({ name: 'Profile test', vaultAddress: privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`), chainId: 31337 })
    studioId = studio.id
  })

  test('behavior: a studio starts without a profile; a put replaces the whole profile, fields left out included', async () => {
    const profiles = createBusinessProfileStore(db)
    expect(await profiles.getBusinessProfile(studioId)).toBeNull()
    expect(await profiles.getBusinessProfile('not-a-uuid')).toBeNull()
    const first = await profiles.putBusinessProfile(studioId, northwind)
    expect(first).toEqual({ ...northwind, updatedAt: expect.any(Date) })
    expect(await profiles.getBusinessProfile(studioId)).toEqual(first)
    const second = await profiles.putBusinessProfile(studioId, { ...freelancer })
    expect(second).toEqual({ ...freelancer, updatedAt: expect.any(Date) })
    expect(second.vatNumber).toBeNull()
    expect(second.updatedAt.getTime()).toBeGreaterThanOrEqual(first.updatedAt.getTime())
    const partial = await profiles.putBusinessProfile(studioId, { ...freelancer, email: null, address: { ...freelancer.address, street: null } })
    expect(isProfileComplete(partial)).toBe(false)
  })
})
