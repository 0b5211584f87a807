import { CodedError } from '../../shared/codedError'

/** 401 (SPEC 7.2): the request does not prove which key or user sent it. */
export class AuthenticationError extends CodedError {
  override name = 'AuthenticationError'
  constructor(
    readonly code: 'UNAUTHORIZED' | 'CLOCK_SKEW' | 'NONCE_REUSED',
    message: string,
  ) {
    super(message)
  }
}

/** 400: x-svc-key was sent, but the HMAC headers around it are missing or malformed (SPEC 5.2). */
export class HmacHeadersError extends CodedError {
  override name = 'HmacHeadersError'
  readonly code = 'HMAC_HEADERS_INVALID'
}

/** 400: an API key and a bearer token in one request (SPEC 5.1 item 3). */
export class MixedAuthError extends CodedError {
  override name = 'MixedAuthError'
  readonly code = 'MIXED_AUTH'
  constructor() {
    super('send either the HMAC headers or a bearer token, not both')
  }
}

/** 403: authenticated, but not allowed this route (SPEC 5.5, 7.3). */
export class ForbiddenError extends CodedError {
  override name = 'ForbiddenError'
  readonly code = 'FORBIDDEN'
}

/** 503: the identity provider's keys could not be fetched, so no bearer token can be checked now. */
export class AuthUnavailableError extends CodedError {
  override name = 'AuthUnavailableError'
  readonly code = 'AUTH_UNAVAILABLE'
  constructor() {
    super("the identity provider's signing keys are unavailable: try again shortly")
  }
}
