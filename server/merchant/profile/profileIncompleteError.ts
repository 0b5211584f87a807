import { CodedError } from '../../../shared/codedError'
import { missingProfileFields, type BusinessProfile } from './businessProfile'

/** 400 (SPEC 7.3 PROFILE_INCOMPLETE): the studio's business profile lacks what an invoice names of
 * its issuer. `missing` lists the fields to complete (PUT /v1/studios/me/profile). */
export class ProfileIncompleteError extends CodedError {
  override name = 'ProfileIncompleteError'
  readonly code = 'PROFILE_INCOMPLETE'
  constructor(missing: readonly string[]) {
    super(`complete the studio's business profile before issuing: ${missing.join(', ')} missing or invalid`, { details: { missing } })
  }
}

/** Throws ProfileIncompleteError unless `profile` is complete: what issuance checks first. */
export function assertProfileComplete(profile: BusinessProfile | null): asserts profile is BusinessProfile {
  const missing = missingProfileFields(profile)
  if (missing.length > 0) throw new ProfileIncompleteError(missing)
}
