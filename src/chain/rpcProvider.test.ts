import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { pinnedRpcProvider } from './rpcProvider'

type Call = { method: string; params: unknown[] }
type Node = { url: string; calls: Call[] }

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

/** A JSON-RPC endpoint on loopback: answers eth_chainId with `chainId`, everything else with `answer`. */
async function node(chainId: number, answer: (call: Call) => { status?: number; body: unknown }): Promise<Node> {
  const calls: Call[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const { id, method, params } = JSON.parse(body) as Call & { id: number }
      calls.push({ method, params })
      const reply = method === 'eth_chainId' ? { body: { result: `0x${chainId.toString(16)}` } } : answer({ method, params })
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ jsonrpc: '2.0', id, ...(reply.body as object) }))
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls }
}

const blockNumber = () => ({ body: { result: '0x2a' } })

describe('pinnedRpcProvider', () => {
  test('default: asks the first pinned endpoint, once it has said it serves the pinned chain', async () => {
    const first = await node(31337, blockNumber)
    const provider = pinnedRpcProvider({ urls: [first.url], chainId: 31337 })
    expect(await provider.request({ method: 'eth_blockNumber' })).toBe('0x2a')
    expect(await provider.request({ method: 'eth_blockNumber' })).toBe('0x2a')
    expect(first.calls.map((call) => call.method)).toEqual(['eth_chainId', 'eth_blockNumber', 'eth_blockNumber'])
  })

  test('behavior: an endpoint on another chain is never asked a question, and the next one answers', async () => {
    const mainnet = await node(1, () => ({ body: { result: '0xbad' } }))
    const pinned = await node(31337, blockNumber)
    const provider = pinnedRpcProvider({ urls: [mainnet.url, pinned.url], chainId: 31337 })
    expect(await provider.request({ method: 'eth_blockNumber' })).toBe('0x2a')
    await provider.request({ method: 'eth_blockNumber' })
    expect(mainnet.calls.map((call) => call.method)).toEqual(['eth_chainId'])
  })

  test('behavior: an endpoint that fails (HTTP 503, RPC error) or is unreachable hands over to the next', async () => {
    const failing = await node(31337, () => ({ status: 503, body: {} }))
    const erring = await node(31337, () => ({ body: { error: { code: -32005, message: 'limit exceeded' } } }))
    const healthy = await node(31337, blockNumber)
    const provider = pinnedRpcProvider({ urls: ['http://127.0.0.1:9', failing.url, erring.url, healthy.url], chainId: 31337 })
    expect(await provider.request({ method: 'eth_blockNumber' })).toBe('0x2a')
  })

  test('behavior: a revert is the chain\'s answer, passed on with its code and not asked elsewhere', async () => {
    const reverting = await node(31337, () => ({ body: { error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } } }))
    const other = await node(31337, blockNumber)
    const provider = pinnedRpcProvider({ urls: [reverting.url, other.url], chainId: 31337 })
    await expect(provider.request({ method: 'eth_call', params: [{ to: '0x00', data: '0x' }, 'latest'] })).rejects.toMatchObject({
      code: 3,
      data: '0x08c379a0',
    })
    expect(other.calls).toEqual([])
  })

  test('behavior: no endpoint on the pinned chain is an error naming the chain, never an answer', async () => {
    const mainnet = await node(1, blockNumber)
    const provider = pinnedRpcProvider({ urls: [mainnet.url], chainId: 31337 })
    await expect(provider.request({ method: 'eth_blockNumber' })).rejects.toThrow('no pinned RPC endpoint serves chain 31337')
  })
})
