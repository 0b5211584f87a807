import { CodedError } from '../../shared/codedError'
/** The API key's secret is not `svc_sk_` followed by 32 bytes in base64url (SPEC 5.2 step 1). */
export class InvalidSecretError extends CodedError {
  override name = 'InvalidSecretError'
  readonly code = 'SECRET_INVALID'
}
