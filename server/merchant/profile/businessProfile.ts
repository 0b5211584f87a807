import * as z from 'zod/mini'
import { isCountryCode } from '../postalAddress'

/** SPEC 2.2: the studio's own party on its invoices, as kept. A studio may have only part of it (or
 * none): every field can be missing until its owner completes it. */
export type BusinessProfile = {
  type: 'entity' | 'person' | null
  legalName: string | null
  email: string | null
  address: { street: string | null; city: string | null; postal: string | null; country: string | null }
  registrationNumber: string | null
  vatNumber: string | null
  tradeName: string | null
  taxId: string | null
}

const validEmail = z.email()
const present = (text: string | null): text is string => text !== null && text.trim().length > 0

/**
 * The fields a profile still lacks before the studio may issue (SPEC 2.2, 7.3 PROFILE_INCOMPLETE):
 * type, legal name, a valid email, the whole address with a valid country, and for an entity its
 * registration number. Empty for a complete profile; a missing profile lacks everything.
 */
export function missingProfileFields(profile: BusinessProfile | null): string[] {
  if (!profile) return ['type', 'legalName', 'email', 'address', 'registrationNumber']
  const { address } = profile
  const missing: string[] = []
  if (profile.type === null) missing.push('type')
  if (!present(profile.legalName)) missing.push('legalName')
  if (!present(profile.email) || !validEmail.safeParse(profile.email).success) missing.push('email')
  if (!present(address.street)) missing.push('address.street')
  if (!present(address.city)) missing.push('address.city')
  if (!present(address.postal)) missing.push('address.postal')
  if (!present(address.country) || !isCountryCode(address.country)) missing.push('address.country')
  // a person's profile needs none; an unknown type cannot be judged either way until it is set
  if (profile.type !== 'person' && !present(profile.registrationNumber)) missing.push('registrationNumber')
  return missing
}

/** SPEC 2.1 `profileComplete`: whether the studio may issue invoices as far as its profile goes. */
export function isProfileComplete(profile: BusinessProfile | null): boolean {
  return missingProfileFields(profile).length === 0
}
