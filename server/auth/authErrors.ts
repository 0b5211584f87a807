import { HttpError } from '../http/httpError'

/** 401 (SPEC 7.2): the request does not prove which key or user sent it. */
export class AuthenticationError extends HttpError {
  override name = 'AuthenticationError'
  constructor(code: 'UNAUTHORIZED' | 'CLOCK_SKEW' | 'NONCE_REUSED', message: string) {
    super(401, code, message, {}, { 'WWW-Authenticate': 'SVC-HMAC' })
  }
}

/** 400: x-svc-key was sent, but the HMAC headers around it are missing or malformed (SPEC 5.2). */
export class HmacHeadersError extends HttpError {
  override name = 'HmacHeadersError'
  constructor(message: string) {
    super(400, 'HMAC_HEADERS_INVALID', message)
  }
}

/** 400: an API key and a bearer token in one request (SPEC 5.1 item 3). */
export class MixedAuthError extends HttpError {
  override name = 'MixedAuthError'
  constructor() {
    super(400, 'MIXED_AUTH', 'send either the HMAC headers or a bearer token, not both')
  }
}

/** 403: authenticated, but not allowed this route (SPEC 5.5, 7.3). */
export class ForbiddenError extends HttpError {
  override name = 'ForbiddenError'
  constructor(message: string) {
    super(403, 'FORBIDDEN', message)
  }
}

/** 503: the identity provider's keys could not be fetched, so no bearer token can be checked now. */
export class AuthUnavailableError extends HttpError {
  override name = 'AuthUnavailableError'
  constructor() {
    super(503, 'AUTH_UNAVAILABLE', "the identity provider's signing keys are unavailable: try again shortly")
  }
}
