import * as z from 'zod/mini'
import { ApiError } from './apiError'
import { errorResponseSchema } from '../../shared/wire'

export type RequestJsonParameters<S extends z.ZodMiniType> = {
  fetch: typeof globalThis.fetch
  url: string
  /** A JSON body makes it a POST. */
  body?: unknown
  schema: S
  timeoutMs: number
  now?: () => number
}

/** One call to the pay API: a success body is checked against its wire schema, anything else becomes
 * an ApiError. A request that got no usable answer (offline, timed out, or an answer that is not the
 * documented shape) has status 0: it may or may not have taken effect. */
export async function requestJson<S extends z.ZodMiniType>(p: RequestJsonParameters<S>): Promise<z.infer<S>> {
  // no Referer: inline, the widget runs on the merchant's page, whose URL is not the checkout's to see;
  // on the pay page the URL carries the token
  const init: RequestInit = { signal: AbortSignal.timeout(p.timeoutMs), headers: { accept: 'application/json' }, referrerPolicy: 'no-referrer' }
  if (p.body !== undefined) {
    init.method = 'POST'
    init.headers = { accept: 'application/json', 'content-type': 'application/json' }
    init.body = JSON.stringify(p.body)
  }
  let response: Response
  let body: unknown
  try {
    response = await p.fetch(p.url, init)
    body = await response.json().catch(() => undefined)
  } catch (error) {
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: error instanceof Error ? error.message : 'no answer' })
  }
  if (!response.ok) throw errorOf(response, body, p.now ?? Date.now)
  const parsed = p.schema.safeParse(body)
  if (!parsed.success) {
    throw new ApiError({ status: 0, code: 'INVALID_RESPONSE', message: `the answer to ${new URL(p.url, 'http://x').pathname} is not the documented shape` })
  }
  return parsed.data
}

/** SPEC 7.1: the code is in `code`, else in `error`; a body that says neither (a proxy's HTML page)
 * still has its status. */
export function errorOf(response: Response, body: unknown, now: () => number = Date.now): ApiError {
  const parsed = errorResponseSchema.safeParse(body)
  const code = parsed.success ? (parsed.data.code ?? parsed.data.error) : `HTTP_${response.status}`
  const message = (parsed.success && parsed.data.message) || `HTTP ${response.status}`
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'), now())
  return new ApiError({ status: response.status, code, message, ...(retryAfter === undefined ? {} : { retryAfter }) })
}

/** Retry-After is whole seconds or an HTTP date (RFC 9110 10.2.3). */
export function retryAfterSeconds(header: string | null, now: number): number | undefined {
  if (header === null) return undefined
  const trimmed = header.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}
