import { signRequest, type SignRequestParameters } from '../../cli/merchant/signRequest'

export type SignedRequest = Omit<SignRequestParameters, 'keyId' | 'secret' | 'body'> & {
  body?: string
  /** Sent instead of what was signed, to tamper with one part. */
  send?: { method?: string; path?: string; query?: string; body?: string; headers?: Record<string, string> }
  contentType?: string
}

export type Answer = { status: number; body: any; headers: Headers }

export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: response.status, body, headers: response.headers }
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>

/** One HMAC-signed request, sent as signed unless `send` alters a part of it: to a server at `base`,
 * or through `through` (an in-process app's fetch) with `base` as its origin. */
export async function signedRequest(
  base: string,
  key: { keyId: string; secret: string },
  request: SignedRequest,
  through: Fetch = fetch,
): Promise<Answer> {
  const { send = {}, contentType = 'application/json', ...parts } = request
  const signed = await signRequest({ ...key, ...parts })
  const path = send.path ?? parts.path
  const query = send.query ?? parts.query ?? ''
  const body = send.body ?? parts.body
  const headers: Record<string, string> = { ...signed, ...(body === undefined ? {} : { 'content-type': contentType }), ...send.headers }
  const init: RequestInit = { method: send.method ?? parts.method, headers }
  if (body !== undefined) init.body = body
  return answerOf(await through(`${base}${path}${query ? `?${query}` : ''}`, init))
}
