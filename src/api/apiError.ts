import { CodedError } from '../../shared/codedError'
/** How the pay API's HTTP client reports anything but success. `status` 0 means no answer at all
 * (offline, timeout, aborted): the request may or may not have reached the server. `code` is the
 * machine-readable code from the body (`code`, else `error`, SPEC 7.1); `message` is the server's
 * prose, for logs only: the payer is shown text chosen by code. `retryAfter` is in seconds. */
export class ApiError extends CodedError {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  // declared, not initialised: absent (not undefined) when the server sent no Retry-After
  declare readonly retryAfter?: number

  constructor({ status, code, message, retryAfter }: { status: number; code: string; message: string; retryAfter?: number }) {
    super(message)
    this.status = status
    this.code = code
    if (retryAfter !== undefined) this.retryAfter = retryAfter
  }
}
