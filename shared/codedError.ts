/**
 * The one error family of the client, the server and the tools: a machine-readable `code` (SPEC 7's
 * where the error is an answer), a short message and the `cause` it wraps. Handlers decide by code,
 * never by the class of another layer.
 */
export abstract class CodedError extends Error {
  abstract readonly code: string
}
