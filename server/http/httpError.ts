import { CodedError } from '../../shared/codedError'
/** An answer the client caused or can act on: mapped to `{ error, code, message }` with its status by
 * the one error handler. Anything else that escapes a route is a 500 that reveals nothing. */
export class HttpError extends CodedError {
  override name = 'HttpError'
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 502 | 503,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export type ValidationIssue = { path: string; message: string }

export class ValidationError extends CodedError {
  override name = 'ValidationError'
  readonly code = 'VALIDATION_ERROR'
  constructor(readonly details: ValidationIssue[]) {
    super('invalid request')
  }
}
