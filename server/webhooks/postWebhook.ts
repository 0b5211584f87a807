import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import type { WebhookDestination } from './verifyWebhookUrl'

export type PostWebhookParameters = {
  destination: WebhookDestination
  headers: Record<string, string>
  body: string
  timeoutMs: number
}

/** What the receiver answered, or why there was no answer. The body is never read: a receiver's
 * answer is its own business, and a hostile one could make it large. */
export type PostWebhookReturnType = { status: number } | { failure: 'timeout' | 'unreachable' }

/**
 * POSTs one webhook to the checked address only: the connection's lookup answers with it whatever
 * the host name would resolve to now, while TLS still verifies the certificate for the host name.
 * Redirects are not followed (a 3xx is an answer like any other non-2xx), and the whole exchange,
 * up to the answer's status line and headers, has `timeoutMs`.
 */
export function postWebhook({ destination, headers, body, timeoutMs }: PostWebhookParameters): Promise<PostWebhookReturnType> {
  const { url, address, family } = destination
  const pinned = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }) as unknown as LookupFunction
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    let settled = false
    const finish = (result: PostWebhookReturnType) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(result)
    }
    const req = send(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinned, agent: false },
      (res: IncomingMessage) => {
        finish({ status: res.statusCode ?? 0 })
        res.destroy()
      },
    )
    const timer = setTimeout(() => {
      finish({ failure: 'timeout' })
      req.destroy()
    }, timeoutMs)
    req.on('error', () => finish({ failure: 'unreachable' }))
    req.end(body)
  })
}
