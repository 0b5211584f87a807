import { describe, expect, test } from 'vitest'
import { useInProcessApp } from '../support/inProcessApp'

/** A well-formed ERC-7677 request: this app has no paymaster service (and no chain) behind the route. */
const request = {
  jsonrpc: '2.0',
  id: 'a',
  method: 'pm_getPaymasterStubData',
  params: [
    { sender: '0x1111111111111111111111111111111111111111', nonce: '0x0', callData: '0x' },
    '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
    '0x7a69',
    {},
  ],
}

describe('POST /v1/paymaster', () => {
  // the service's own limit is a fifth of the general one, unless configured
  const ctx = useInProcessApp({ rateLimitPerMinute: 100, trustedProxies: { hops: 1 } })
  const post = (body: unknown, client = '198.51.100.40', contentType = 'application/json') =>
    ctx.app.request('/v1/paymaster', { method: 'POST', headers: { 'content-type': contentType, 'x-forwarded-for': client, origin: 'https://wallet.example' }, body: JSON.stringify(body) })

  test('behavior: a server without its own paymaster signer refuses every request with PAYMASTER_SERVICE_OFF and signs nothing, readable from any origin', async () => {
    const response = await post(request)
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error: { code: -32003, message: 'this server sponsors through another paymaster service, not its own', data: { code: 'PAYMASTER_SERVICE_OFF' } },
    })
  })

  test('behavior: a CORS preflight from a wallet is answered before any limit', async () => {
    const response = await ctx.app.request('/v1/paymaster', {
      method: 'OPTIONS',
      headers: { origin: 'https://wallet.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('behavior: a body that is not a JSON-RPC 2.0 request is a 400, another media type a 415, another method a 405', async () => {
    const notRpc = await post({ method: 'pm_getPaymasterData' }, '198.51.100.41')
    expect(notRpc.status).toBe(400)
    expect(await notRpc.json()).toMatchObject({ error: 'VALIDATION_ERROR' })
    expect((await post(request, '198.51.100.41', 'text/plain')).status).toBe(415)
    const get = await ctx.app.request('/v1/paymaster', { headers: { 'x-forwarded-for': '198.51.100.41' } })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
  })

  test('behavior: 20 requests a minute per client (a fifth of the general limit), each client apart', async () => {
    const statuses: number[] = []
    for (let n = 0; n < 21; n++) statuses.push((await post(request, '198.51.100.42')).status)
    expect(statuses).toEqual([...Array(20).fill(200), 429])
    const refused = await post(request, '198.51.100.42')
    expect(await refused.json()).toMatchObject({ error: 'RATE_LIMITED', code: 'RATE_LIMITED' })
    expect((await post(request, '198.51.100.43')).status).toBe(200)
  })
})
