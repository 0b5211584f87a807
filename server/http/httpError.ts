import { CodedError, type ErrorDetails } from '../../shared/codedError'

export type HttpStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 502 | 503

/** An answer only HTTP explains (a method this route lacks, a body too large, a rate limit with its
 * Retry-After): its status and headers are its own. Everything else throws its layer's coded error
 * and the one table in errorHandler.ts gives the status. `extra` is kept as `details`: the answer's
 * body carries it. */
export class HttpError extends CodedError {
  override name = 'HttpError'
  constructor(
    readonly status: HttpStatus,
    readonly code: string,
    message: string,
    extra: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message, { details: extra })
  }
}

export type ValidationIssue = { path: string; message: string }

export class ValidationError extends CodedError<ValidationIssue[]> {
  override name = 'ValidationError'
  readonly code = 'VALIDATION_ERROR'
  declare readonly details: ValidationIssue[]
  constructor(issues: ValidationIssue[]) {
    super('invalid request', { details: issues })
  }
}
