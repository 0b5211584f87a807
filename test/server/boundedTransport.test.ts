import { createServer } from 'node:http'
import { Hono } from 'hono'
import { createPublicClient, createWalletClient, http, zeroAddress as zero } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Address } from 'viem/account-abstraction'
import { afterAll, describe, expect, test } from 'vitest'
import { boundedTransport } from '../../server/chain/boundedTransport'
import { localBundler, rpcBundler } from '../../server/chain/bundler'
import { chainFor } from '../../server/chain/chainClient'
import { errorHandler } from '../../server/http/errorHandler'
import { silentLogger } from '../../server/http/logger'
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

// a bundler that holds every call until the test lets them all go
const held: (() => void)[] = []
const heldService = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    held.push(() => {
      const { id } = JSON.parse(body) as { id: number }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: null }))
    })
  })
})
const heldPort = await listenOnLoopback(heldService, 0)
afterAll(() => new Promise<void>((resolve) => heldService.close(() => resolve())))

const releaseHeld = () => held.splice(0).forEach((answer) => answer())
/** Lets the held calls go, and those queued behind them as they reach the service, until all are answered. */
async function drained<T>(pending: (T | Promise<T>)[]): Promise<T[]> {
  let done = false
  const all = Promise.all(pending).finally(() => (done = true))
  while (!done) {
    releaseHeld()
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return all
}
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('the queue in front of an upstream service', () => {
  test('behavior: with 2 in flight and 3 waiting, a sixth call is refused at once without reaching the service; the others are answered', async () => {
    held.length = 0
    const transport = boundedTransport(http(`http://127.0.0.1:${heldPort}`, { retryCount: 0, timeout: 5_000 }), { limit: 2, queueLimit: 3 })({})
    const calls = Array.from({ length: 5 }, () => transport.request({ method: 'eth_chainId' }))
    await until(() => held.length === 2)
    await expect(transport.request({ method: 'eth_chainId' })).rejects.toMatchObject({ code: 'UPSTREAM_BUSY', details: { retryAfterSeconds: 5 } })
    expect(await drained(calls)).toEqual(Array(5).fill(null))
  })

  test('behavior: a payer whose call finds the bundler\'s queue full is answered 503 UPSTREAM_BUSY with Retry-After, and the same call goes through once it has room', async () => {
    held.length = 0
    const deployment = { chainId: 31337, entryPoint: entryPoint07Address, token: zero, registry: zero, vaultFactory: zero, paymaster: zero }
    const bundler = rpcBundler({ url: `http://127.0.0.1:${heldPort}`, deployment, queueLimit: 1 })
    const app = new Hono()
    app.onError(errorHandler(silentLogger))
    app.get('/known', async (c) => c.json({ known: await bundler.knows(`0x${'ab'.repeat(32)}`) }))
    // 8 in flight, 1 waiting: the bundler's queue is full
    const busy = Array.from({ length: 9 }, () => app.request('/known'))
    await until(() => held.length === 8)
    const refused = await app.request('/known')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(await refused.json()).toMatchObject({ error: 'UPSTREAM_BUSY', code: 'UPSTREAM_BUSY', retryAfterSeconds: 5 })
    expect((await drained(busy)).map((answer) => answer.status)).toEqual(Array(9).fill(200))
    const retried = app.request('/known')
    await until(() => held.length === 1)
    releaseHeld()
    expect(await (await retried).json()).toEqual({ known: false })
  })

  test('behavior: the local executor lets one send run and queueLimit wait; the next is refused at once, and once they are done it sends again', async () => {
    held.length = 0
    const url = `http://127.0.0.1:${heldPort}`
    const chain = chainFor(31337, url)
    const deployment = { chainId: 31337, entryPoint: entryPoint07Address, token: zero, registry: zero, vaultFactory: zero, paymaster: zero }
    const bundler = localBundler({
      client: createPublicClient({ chain, transport: http(url, { retryCount: 0 }) }),
      wallet: createWalletClient({ chain, transport: http(url, { retryCount: 0 }), account: privateKeyToAccount(`0x${'11'.repeat(32)}`) }),
      deployment,
      queueLimit: 1,
    })
    const userOp = { sender: zero, nonce: 0n, callData: '0x', callGasLimit: 0n, verificationGasLimit: 0n, preVerificationGas: 0n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n, signature: '0x' } as const
    const settled = (send: Promise<unknown>) => send.then(() => 'sent', (error: { code?: string }) => error.code ?? 'error')
    const first = settled(bundler.send(userOp))
    const second = settled(bundler.send(userOp))
    await until(() => held.length === 1)
    expect(await settled(bundler.send(userOp))).toBe('UPSTREAM_BUSY')
    // the held service answers null where a gas estimate belongs: the sends fail, but not as busy
    expect(await drained([first, second])).toEqual(['BUNDLER_UNAVAILABLE', 'BUNDLER_UNAVAILABLE'])
    expect(await drained([settled(bundler.send(userOp))])).toEqual(['BUNDLER_UNAVAILABLE'])
  })
})
