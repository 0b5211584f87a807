import { createServer } from 'node:http'
import { http } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { boundedTransport } from '../../server/chain/boundedTransport'
import { listenOnLoopback } from '../support/loopback'

// a JSON-RPC service that takes 100 ms a call and counts how many it is asked at once
let inFlight = 0
let mostAtOnce = 0
const service = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    inFlight++
    mostAtOnce = Math.max(mostAtOnce, inFlight)
    setTimeout(() => {
      inFlight--
      const { id } = JSON.parse(body) as { id: number }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x1' }))
    }, 100)
  })
})
const port = await listenOnLoopback(service, 0)
afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())))

describe('boundedTransport', () => {
  test('behavior: 40 callers at once reach a slow service 4 at a time, and none times out while it waits its turn', async () => {
    // each call alone is well inside its 300 ms timeout; all 40 at once would not be
    const transport = boundedTransport(http(`http://127.0.0.1:${port}`, { retryCount: 0, timeout: 300 }), 4)({})
    const answers = await Promise.all(Array.from({ length: 40 }, () => transport.request({ method: 'eth_chainId' })))
    expect(answers).toEqual(Array.from({ length: 40 }, () => '0x1'))
    expect(mostAtOnce).toBe(4)
  })
})
