/** The facts an error carries beside its message (an amount, a hash, a status): what a caller acts
 * on. Never a secret: the server adds the details of an answered code to the answer's body. */
export type ErrorDetails = Readonly<Record<string, unknown>>

export type CodedErrorOptions<Details> = { cause?: unknown; details?: Details }

/** Deep enough for any wrapping we or viem do; a cycle of causes must not hang a handler. */
const maxDepth = 16

/**
 * Follows `cause` from `error` inward (our coded errors, viem's BaseError and plain `Error`s all keep
 * what they wrap there). With a predicate, the first error on the way that satisfies it (`error`
 * itself included), else undefined; without, the innermost error.
 */
export function walkCauses<T>(error: unknown, predicate: (error: unknown) => error is T): T | undefined
export function walkCauses(error: unknown, predicate: (error: unknown) => boolean): unknown
export function walkCauses(error: unknown): unknown
export function walkCauses(error: unknown, predicate?: (error: unknown) => boolean): unknown {
  let at = error
  for (let depth = 0; ; depth++) {
    if (predicate?.(at)) return at
    const cause = typeof at === 'object' && at !== null && 'cause' in at ? at.cause : undefined
    if (cause === undefined || cause === at || depth === maxDepth) return predicate ? undefined : at
    at = cause
  }
}

/** Whether `error` is one of ours with this code: how a layer decides on another layer's error. */
export function hasCode(error: unknown, code: string): error is CodedError {
  return error instanceof CodedError && error.code === code
}

/**
 * The one error family of the client, the server and the tools: a machine-readable `code` (SPEC 7's
 * where the error is an answer), a message that says what happened and what to do, the `details` a
 * caller may act on, and the `cause` it wraps. Handlers decide by code, never by the class of another
 * layer; the server's HTTP layer alone turns a code into a status.
 */
export abstract class CodedError<Details = ErrorDetails> extends Error {
  abstract readonly code: string
  readonly details: Details | undefined

  constructor(message: string, { cause, details }: CodedErrorOptions<Details> = {}) {
    super(message, cause === undefined ? undefined : { cause })
    this.details = details
  }

  /** The innermost cause, or the first error from this one inward that satisfies `predicate`. */
  walk(): unknown
  walk<T>(predicate: (error: unknown) => error is T): T | undefined
  walk(predicate: (error: unknown) => boolean): unknown
  walk(predicate?: (error: unknown) => boolean): unknown {
    return predicate ? walkCauses(this, predicate) : walkCauses(this)
  }
}
