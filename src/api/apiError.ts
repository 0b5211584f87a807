import { CodedError } from '../../shared/codedError'

/** What an answer says beside its code: the HTTP status (0: no answer at all) and, where the server
 * sent one, Retry-After in seconds. Readers outside this folder read these, not the class. */
export type ApiErrorDetails = { readonly status: number; readonly retryAfter?: number }

/** How the pay API's HTTP client reports anything but success. `status` 0 means no answer at all
 * (offline, timeout, aborted): the request may or may not have reached the server. `code` is the
 * machine-readable code from the body (`code`, else `error`, SPEC 7.1); `message` is the server's
 * prose, for logs only: the payer is shown text chosen by code. `retryAfter` is in seconds. */
export class ApiError extends CodedError<ApiErrorDetails> {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  // declared, not initialised: absent (not undefined) when the server sent no Retry-After
  declare readonly retryAfter?: number
  declare readonly details: ApiErrorDetails

  constructor({ status, code, message, retryAfter }: { status: number; code: string; message: string; retryAfter?: number }) {
    super(message, { details: retryAfter === undefined ? { status } : { status, retryAfter } })
    this.status = status
    this.code = code
    if (retryAfter !== undefined) this.retryAfter = retryAfter
  }
}

/** The status and Retry-After of an error the pay API's client threw, read by its details: undefined
 * for any other error. */
export function apiAnswerOf(error: unknown): (ApiErrorDetails & { code: string }) | undefined {
  if (!(error instanceof CodedError)) return undefined
  const status: unknown = error.details?.status
  if (typeof status !== 'number') return undefined
  const retryAfter: unknown = error.details?.retryAfter
  return { code: error.code, status, ...(typeof retryAfter === 'number' ? { retryAfter } : {}) }
}
