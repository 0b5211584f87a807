import { describe, expect, test } from 'vitest'
import { useInProcessApp } from '../support/inProcessApp'

// methods are refused before any route reads the chain: no chain here
const ctx = useInProcessApp()
const id = 7

async function send(method: string, path: string) {
  const response = await ctx.fetch(`http://checkout.test${path}`, { method })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
}

describe('a wrong method on a defined route', () => {
  test('behavior: is 405 with the route\'s methods in Allow and the SPEC error shape, never 404 or 500', async () => {
    const token = '6f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f'
    const cases: [method: string, path: string, allow: string][] = [
      ['PUT', `/v1/pay/${id}`, 'GET, HEAD, POST'],
      ['DELETE', `/v1/pay/${id}`, 'GET, HEAD, POST'],
      ['PATCH', `/v1/pay/${id}`, 'GET, HEAD, POST'],
      ['GET', `/v1/pay/${id}/permit`, 'POST'],
      ['GET', `/v1/pay/${id}/prepare`, 'POST'],
      ['POST', `/v1/pay/${id}/metadata`, 'GET, HEAD'],
      ['POST', `/v1/pay/${id}/pdf`, 'GET, HEAD'],
      ['POST', `/v1/invoices/${id}/share`, 'GET, HEAD'],
      ['DELETE', `/v1/invoices/${id}/tokens`, 'GET, HEAD, POST'],
      ['GET', `/v1/invoices/${id}/tokens/${token}`, 'DELETE'],
      ['GET', `/v1/invoices/${id}/share/regenerate`, 'POST'],
      ['POST', `/pay/${id}`, 'GET, HEAD'],
      ['DELETE', '/assets/index.js', 'GET, HEAD'],
    ]
    for (const [method, path, allow] of cases) {
      const { status, headers, body } = await send(method, path)
      const name = `${method} ${path}`
      expect(status, name).toBe(405)
      expect(headers.get('allow'), name).toBe(allow)
      expect(body, name).toMatchObject({ error: 'METHOD_NOT_ALLOWED', code: 'METHOD_NOT_ALLOWED', message: expect.any(String) })
    }
  })

  test('behavior: HEAD on a route without GET is 405 too, with Allow and no body', async () => {
    const { status, headers, body } = await send('HEAD', `/v1/pay/${id}/permit`)
    expect(status).toBe(405)
    expect(headers.get('allow')).toBe('POST')
    expect(body).toBeNull()
  })

  test('behavior: a browser on another origin can read the 405 of a pay route; its preflight is still answered', async () => {
    const path = `/v1/pay/${id}/permit`
    const { headers } = await send('GET', path)
    expect(headers.get('access-control-allow-origin')).toBe('*')
    expect((await send('OPTIONS', path)).status).toBe(204)
  })

  test('behavior: a path that is no route stays 404, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'PUT']) {
      const { status, headers, body } = await send(method, '/v1/pay/1/refund')
      expect(status, method).toBe(404)
      expect(headers.get('allow'), method).toBeNull()
      expect(body, method).toMatchObject({ error: 'NOT_FOUND', code: 'NOT_FOUND' })
    }
  })
})
