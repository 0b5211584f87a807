import { createServer } from 'node:http'
import { encodeAbiParameters, encodeEventTopics, encodeFunctionResult, numberToHex, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { readInvoice } from '../../packages/checkout/src/server'
import { listenOnLoopback } from '../support/loopback'

// readInvoice against a JSON-RPC node that answers as each test says, and records what it was asked:
// the range of a log search is the request itself, and a public RPC's refusal is an answer like any.

const registry = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const merchant = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const payer = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const token = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
const txHash: Hex = `0x${'ab'.repeat(32)}`

const paidRecord = {
  merchant,
  status: 2,
  invoiceNumber: 7n,
  token,
  issuedAt: 1_768_000_000n,
  payer,
  dueAt: 1_768_600_000n,
  paidAt: 1_768_478_400n,
  amount: 4_540_000_000n,
  metaHash: `0x${'11'.repeat(32)}` as Hex,
} as const

const paidLog = {
  address: registry.toLowerCase(),
  topics: encodeEventTopics({ abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: 7n, payer, merchant } }),
  data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint16' }], [4_540_000_000n, 45_400_000n, 4_494_600_000n, 100]),
  blockNumber: numberToHex(1_500n),
  blockHash: `0x${'cd'.repeat(32)}`,
  transactionHash: txHash,
  transactionIndex: '0x0',
  logIndex: '0x3',
  removed: false,
}

type Call = { method: string; params: unknown[] }
/** What the node answers a call: a result, a JSON-RPC error, or an HTTP status with no body. */
type Answer = { result: unknown } | { error: { code: number; message: string } } | { status: number }

const calls: Call[] = []
let answer: (call: Call) => Answer
const node = createServer((request, response) => {
  let body = ''
  request.on('data', (chunk: Buffer) => (body += chunk))
  request.on('end', () => {
    const { id, method, params } = JSON.parse(body) as { id: number } & Call
    calls.push({ method, params })
    const answered = answer({ method, params })
    if ('status' in answered) return void response.writeHead(answered.status).end()
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, ...answered }))
  })
})
let rpcUrl = ''
let host = ''
beforeAll(async () => {
  const port = await listenOnLoopback(node, 0)
  host = `127.0.0.1:${port}`
  // a provider's key in the path, as many RPC URLs carry one
  rpcUrl = `http://${host}/v2/secret-key`
})
afterAll(() => new Promise((resolve) => node.close(resolve)))

/** A node of chain 31337 holding `record`, whose log search answers `logs`. */
const chain = (logs: (call: Call) => Answer, record = paidRecord) => (call: Call): Answer => {
  if (call.method === 'eth_chainId') return { result: numberToHex(31337) }
  if (call.method === 'eth_call') return { result: encodeFunctionResult({ abi: invoiceRegistryAbi, functionName: 'invoices', result: record }) }
  if (call.method === 'eth_getLogs') return logs(call)
  return { error: { code: -32601, message: `${call.method} is not served here` } }
}
const searchedFrom = () => calls.filter((call) => call.method === 'eth_getLogs').map((call) => (call.params[0] as { fromBlock: string }).fromBlock)
const deployment = { chainId: 31337, registry, registryFromBlock: '1200' }

describe('readInvoice', () => {
  test('behavior: it searches for the payment\'s log from the deployment\'s registryFromBlock, or from fromBlock when given, never from block 0', async () => {
    calls.length = 0
    answer = chain(() => ({ result: [paidLog] }))
    const paid = await readInvoice({ rpcUrl, deployment, invoiceId: '7' })
    expect(paid).toEqual({
      invoiceId: '7',
      status: 'paid',
      merchant,
      token,
      amount: '4540000000',
      dueAt: new Date(1_768_600_000_000).toISOString(),
      metaHash: paidRecord.metaHash,
      payment: { payer, paidAt: new Date(1_768_478_400_000).toISOString(), txHash, blockNumber: '1500', fee: '45400000', net: '4494600000' },
    })
    expect(await readInvoice({ rpcUrl, deployment, invoiceId: 7n, fromBlock: 1_400n })).toEqual(paid)
    expect(await readInvoice({ rpcUrl, deployment: { chainId: 31337, registry }, invoiceId: 7n, fromBlock: '1450' })).toEqual(paid)
    expect(searchedFrom()).toEqual([numberToHex(1_200n), numberToHex(1_400n), numberToHex(1_450n)])
  })

  test('behavior: without fromBlock or a deployment\'s registryFromBlock it refuses before asking the RPC anything', async () => {
    calls.length = 0
    answer = chain(() => ({ result: [paidLog] }))
    await expect(readInvoice({ rpcUrl, deployment: { chainId: 31337, registry }, invoiceId: '7' })).rejects.toThrow(
      new TypeError(
        "readInvoice: pass fromBlock, or a deployment with registryFromBlock (the deployment file `npm run deploy` writes has it): a paid invoice's InvoicePaid log is searched for from there, and public RPCs refuse a search from block 0",
      ),
    )
    expect(calls).toEqual([])
  })

  test('behavior: an RPC that refuses the log search rejects with what failed and what to do, never a paid invoice without its payment', async () => {
    calls.length = 0
    answer = chain(() => ({ error: { code: -32602, message: 'eth_getLogs is limited to a 10000 block range' } }))
    const failure = await readInvoice({ rpcUrl, deployment, invoiceId: '7' }).then(
      () => 'resolved',
      (error: Error) => error.message,
    )
    expect(failure).toBe(
      `readInvoice: the RPC at ${host} failed to search blocks 1200 to latest for invoice 7's InvoicePaid log: eth_getLogs is limited to a 10000 block range. Pass the registry's deployment block as fromBlock if it is later, or use an RPC that serves eth_getLogs over this range`,
    )
    expect(failure).not.toContain('secret-key')
  })

  test('behavior: an RPC that fails reading the invoice rejects with what failed, never reads as not found', async () => {
    calls.length = 0
    answer = (call) => (call.method === 'eth_chainId' ? { result: numberToHex(31337) } : { status: 503 })
    const failure = await readInvoice({ rpcUrl, deployment, invoiceId: '7' }).then(
      () => 'resolved',
      (error: Error) => error.message,
    )
    expect(failure).toBe(`readInvoice: the RPC at ${host} failed to read invoice 7 from the registry ${registry}: HTTP 503 Service Unavailable`)
    expect(failure).not.toContain('secret-key')
  })

  test('behavior: a paid invoice whose log the search does not find keeps the record\'s payer and time, the log\'s fields null', async () => {
    answer = chain(() => ({ result: [] }))
    expect(await readInvoice({ rpcUrl, deployment, invoiceId: '7', fromBlock: 1_600n })).toMatchObject({
      status: 'paid',
      payment: { payer, paidAt: new Date(1_768_478_400_000).toISOString(), txHash: null, blockNumber: null, fee: null, net: null },
    })
  })
})
