import { Hono, type Context } from 'hono'
import { describe, expect, test } from 'vitest'
import { answerHeaders } from '../../server/http/answerHeaders'

const edge = { 'x-request-id': 'req-1', 'Referrer-Policy': 'no-referrer' }

function appAnswering(handler: (c: Context) => Response) {
  const app = new Hono()
  const made: Response[] = []
  app.onError((error, c) => c.json({ error: error.message }, 500))
  app.use((c, next) => answerHeaders(c, edge, next))
  app.get('/x', (c) => {
    const response = handler(c)
    made.push(response)
    return response
  })
  return { app, made }
}

describe('answerHeaders', () => {
  test('behavior: the handler\'s answer carries the headers, and is the very Response it made (not a copy with a streamed body)', async () => {
    const { app, made } = appAnswering((c) => c.json({ ok: true }))
    const response = await app.request('/x')
    expect(response.headers.get('x-request-id')).toBe('req-1')
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    expect(response).toBe(made[0])
    expect(await response.json()).toEqual({ ok: true })
  })

  test('behavior: a Response made without the context gets them afterwards', async () => {
    const { app } = appAnswering(() => new Response('raw', { headers: { 'Content-Type': 'text/plain' } }))
    const response = await app.request('/x')
    expect(response.headers.get('x-request-id')).toBe('req-1')
    expect(response.headers.get('content-type')).toBe('text/plain')
    expect(await response.text()).toBe('raw')
  })

  test('behavior: they win over a handler\'s own value, as when they were set last', async () => {
    const { app } = appAnswering((c) => c.body('x', 200, { 'Referrer-Policy': 'origin' }))
    expect((await app.request('/x')).headers.get('referrer-policy')).toBe('no-referrer')
  })

  test('behavior: errors and unknown paths carry them', async () => {
    const { app } = appAnswering(() => {
      throw new Error('boom')
    })
    const failed = await app.request('/x')
    expect(failed.status).toBe(500)
    expect(failed.headers.get('x-request-id')).toBe('req-1')
    const missing = await app.request('/nothing')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('x-request-id')).toBe('req-1')
  })
})
