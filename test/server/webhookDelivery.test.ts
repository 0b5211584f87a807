import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeFunctionData, getAddress, parseUnits, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { devnetClients, mined } from '../../devnet/deploy'
import { writeDevnetFile } from '../../devnet/devnetFile'
import { createPayer } from '../../devnet/seed'
import { seedMerchantAccess, type SeededMerchantAccess } from '../../devnet/seedMerchantAccess'
import { payThroughServer, useServer } from '../support/server'
import { signedRequest } from '../support/signedRequest'
import { webhookEventSchema } from '../../shared/webhookWire'
import { startWebhookReceiver, verified, type ReceivedWebhook, type ReceiverAnswer } from '../support/webhookReceiver'

// a receiver's failures are waited out in real time: the schedule is as short as a loaded machine
// still keeps its order (three attempts well inside the window)
const retryDelayMs = 200
const giveUpAfterMs = 1_800
/** Long enough for an attempt the schedule would still make to have come: four retry delays. */
const afterRetriesMs = 4 * retryDelayMs
const ctx = useServer({
  overrides: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_INTERVAL_MS: '100' },
  webhookSchedule: { retryDelaysMs: [retryDelayMs], giveUpAfterMs },
})
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Per path, how the receiver answers; 200 where none is set. */
const answers = new Map<string, (request: ReceivedWebhook, index: number) => ReceiverAnswer>()
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
let merchant: SeededMerchantAccess
beforeAll(async () => {
  receiver = await startWebhookReceiver((request, index) => answers.get(request.path)?.(request, index) ?? { status: 200 })
  merchant = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
})
afterAll(() => receiver?.close())

function merchantCall(method: string, path: string, body?: unknown, key = merchant.apiKey) {
  return signedRequest(ctx.server.url, key, { method, path, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
}

/** Registers `path` on the receiver for the demo merchant's studio, removed again after the test. */
async function register(path: string, events?: string[], key = merchant.apiKey) {
  const created = await merchantCall('POST', '/v1/webhook-endpoints', { url: `${receiver.url}${path}`, ...(events ? { events } : {}) }, key)
  expect(created.status).toBe(201)
  onTestFinished(async () => {
    await merchantCall('DELETE', `/v1/webhook-endpoints/${created.body.id}`, undefined, key)
  })
  return created.body as { id: string; secret: string }
}

async function metric(outcome: string): Promise<number> {
  const text = await (await fetch(`${ctx.server.url}/metrics`)).text()
  return Number(new RegExp(`^svc_checkout_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0)
}

const isoOf = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString()

/** The chain's own record of the payment: what the webhook must say. */
async function paidOnChain(id: bigint) {
  const { clients, deployment } = ctx.devnet
  const [log] = await clients.public.getContractEvents({ address: deployment.registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id }, fromBlock: 0n, strict: true })
  const block = await clients.public.getBlock({ blockNumber: log!.blockNumber })
  return { log: log!, blockTime: isoOf(block.timestamp) }
}

/** A payment that never touches the server: the payer's vault, deployed and driven by its owner, calls the registry. */
async function payDirectly(id: bigint, amount: bigint) {
  const { devnet } = ctx
  const payer = await createPayer(devnet.clients, devnet.deployment, amount)
  const owner = privateKeyToAccount(payer.ownerPrivateKey)
  await devnet.test.setBalance({ address: owner.address, value: parseUnits('1', 18) })
  const { public: client, wallet } = devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId, owner)
  const createAccount = [{ type: 'function', name: 'createAccount', stateMutability: 'nonpayable', inputs: [{ name: 'owner', type: 'address' }, { name: 'salt', type: 'uint256' }], outputs: [{ type: 'address' }] }] as const
  await mined(client, await devnet.clients.wallet.writeContract({ address: devnet.deployment.vaultFactory, abi: createAccount, functionName: 'createAccount', args: [owner.address, 0n] }))
  const approve = encodeFunctionData({ abi: stablecoinAbi, functionName: 'approve', args: [devnet.deployment.registry, amount] })
  await mined(client, await wallet.writeContract({ address: payer.vault, abi: payerVaultAbi, functionName: 'execute', args: [devnet.deployment.token, 0n, approve] }))
  const pay = encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'pay', args: [id, 0n, 0, `0x${'00'.repeat(32)}`, `0x${'00'.repeat(32)}`] })
  const receipt = await mined(client, await wallet.writeContract({ address: payer.vault, abi: payerVaultAbi, functionName: 'execute', args: [devnet.deployment.registry, 0n, pay] }))
  return { payer, txHash: receipt.transactionHash as Hex }
}

async function expectedPaid(id: bigint, payer: string, amount: bigint, txHash: Hex) {
  const { deployment, seed } = ctx.devnet
  const { log, blockTime } = await paidOnChain(id)
  expect(log.args.fee + log.args.net).toBe(amount)
  return {
    type: 'invoice.paid',
    timestamp: blockTime,
    data: {
      chainId: deployment.chainId,
      registry: getAddress(deployment.registry),
      invoiceId: id.toString(),
      merchant: getAddress(seed.merchant.vault),
      payer: getAddress(payer),
      token: getAddress(deployment.token),
      amount: amount.toString(),
      fee: log.args.fee.toString(),
      net: log.args.net.toString(),
      feeBps: log.args.feeBps,
      txHash,
      logIndex: log.logIndex,
      blockNumber: log.blockNumber.toString(),
      blockTime,
    },
  }
}

describe('invoice.paid', () => {
  test('behavior: a payment made through the server delivers one invoice.paid that verifies with Standard Webhooks, saying what the chain says', async () => {
    const endpoint = await register('/through-server')
    const invoice = await ctx.devnet.newInvoice(parseUnits('25', 6))
    const payer = await ctx.devnet.newPayer(parseUnits('100', 6))
    const { submit } = await payThroughServer(ctx.server.url, invoice.id, payer)
    expect(submit.status).toBe(200)
    await expect.poll(() => receiver.at('/through-server').length, { timeout: 10_000, interval: 50 }).toBe(1)
    const [delivery] = receiver.at('/through-server')
    expect(delivery!.headers['content-type']).toBe('application/json')
    expect(delivery!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
    expect(Math.abs(Number(delivery!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10)
    const event = verified(endpoint.secret, delivery!)
    const expected = await expectedPaid(invoice.id, payer.vault, parseUnits('25', 6), submit.body.txHash)
    expect(event).toEqual(expected)
    // byte for byte, in the order docs/webhooks.md shows
    expect(delivery!.body).toBe(JSON.stringify(expected))
    // the shape the OpenAPI document's webhooks describe
    expect(webhookEventSchema.parse(event)).toEqual(event)
    // the same event is not sent again, by this pass or a later one
    await sleep(1_000)
    expect(receiver.at('/through-server')).toHaveLength(1)
  })

  test('behavior: a payment made on-chain without the server delivers one invoice.paid all the same', async () => {
    const endpoint = await register('/on-chain')
    const invoice = await ctx.devnet.newInvoice(parseUnits('12.5', 6))
    const { payer, txHash } = await payDirectly(invoice.id, parseUnits('12.5', 6))
    await expect.poll(() => receiver.at('/on-chain').length, { timeout: 10_000, interval: 50 }).toBe(1)
    expect(verified(endpoint.secret, receiver.at('/on-chain')[0]!)).toEqual(await expectedPaid(invoice.id, payer.vault, parseUnits('12.5', 6), txHash))
    await sleep(1_000)
    expect(receiver.at('/on-chain')).toHaveLength(1)
  })

  test("behavior: another studio's endpoint, and one that asked only for invoice.canceled, receive nothing of the payment", async () => {
    const other = await ctx.server.stores.studios.createStudio({ name: 'Another merchant', vaultAddress: privateKeyToAccount(`0x${'42'.repeat(32)}`).address, chainId: ctx.devnet.deployment.chainId })
    const otherKey = await ctx.server.stores.apiKeys.createApiKey({ studioId: other.id, name: 'other', scopes: ['write'] })
    await register('/other-studio', undefined, otherKey)
    await register('/canceled-only', ['invoice.canceled'])
    await register('/witness')
    const invoice = await ctx.devnet.newInvoice(parseUnits('3', 6))
    await payDirectly(invoice.id, parseUnits('3', 6))
    await expect.poll(() => receiver.at('/witness').length, { timeout: 10_000, interval: 50 }).toBe(1)
    await sleep(500)
    expect(receiver.at('/other-studio')).toEqual([])
    expect(receiver.at('/canceled-only')).toEqual([])
  })
})

describe('invoice.canceled', () => {
  test('behavior: the merchant canceling an invoice delivers one invoice.canceled', async () => {
    const endpoint = await register('/canceled')
    const invoice = await ctx.devnet.newInvoice(parseUnits('7', 6))
    await ctx.devnet.cancelInvoice(invoice.id)
    await expect.poll(() => receiver.at('/canceled').length, { timeout: 10_000, interval: 50 }).toBe(1)
    const { clients, deployment, seed } = ctx.devnet
    const [log] = await clients.public.getContractEvents({ address: deployment.registry, abi: invoiceRegistryAbi, eventName: 'InvoiceCanceled', args: { id: invoice.id }, fromBlock: 0n, strict: true })
    const blockTime = isoOf((await clients.public.getBlock({ blockNumber: log!.blockNumber })).timestamp)
    const event = verified(endpoint.secret, receiver.at('/canceled')[0]!)
    expect(webhookEventSchema.parse(event)).toEqual(event)
    expect(event).toEqual({
      type: 'invoice.canceled',
      timestamp: blockTime,
      data: {
        chainId: deployment.chainId,
        registry: getAddress(deployment.registry),
        invoiceId: invoice.id.toString(),
        merchant: getAddress(seed.merchant.vault),
        txHash: log!.transactionHash,
        logIndex: log!.logIndex,
        blockNumber: log!.blockNumber.toString(),
        blockTime,
      },
    })
  })
})

describe('retries', () => {
  test('behavior: a receiver answering 500 gets the same webhook-id and body again, signed anew, until it answers 2xx', async () => {
    const seen = new Map<string, number>()
    answers.set('/flaky', (request) => {
      const id = request.headers['webhook-id']!
      seen.set(id, (seen.get(id) ?? 0) + 1)
      return { status: seen.get(id)! <= 2 ? 500 : 204 }
    })
    const [errorsBefore, deliveredBefore] = [await metric('http_error'), await metric('delivered')]
    const endpoint = await register('/flaky')
    const invoice = await ctx.devnet.newInvoice(parseUnits('4', 6))
    await payDirectly(invoice.id, parseUnits('4', 6))
    await expect.poll(() => receiver.at('/flaky').length, { timeout: 10_000, interval: 50 }).toBe(3)
    const attempts = receiver.at('/flaky')
    expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size).toBe(1)
    expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1)
    for (const attempt of attempts) expect(verified(endpoint.secret, attempt).data.invoiceId).toBe(invoice.id.toString())
    // the schedule's wait between attempts, not a hot loop
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(retryDelayMs - 50)
    await sleep(afterRetriesMs)
    expect(receiver.at('/flaky')).toHaveLength(3)
    expect((await metric('http_error')) - errorsBefore).toBe(2)
    expect((await metric('delivered')) - deliveredBefore).toBe(1)
  })

  test('behavior: a redirect is not followed: the target it names gets nothing, and the delivery is retried as not received', async () => {
    answers.set('/moved', () => ({ status: 307, headers: { location: `${receiver.url}/moved-here` } }))
    await register('/moved')
    const invoice = await ctx.devnet.newInvoice(parseUnits('2', 6))
    await payDirectly(invoice.id, parseUnits('2', 6))
    await expect.poll(() => receiver.at('/moved').length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(2)
    expect(receiver.at('/moved-here')).toEqual([])
    expect(new Set(receiver.at('/moved').map((attempt) => attempt.headers['webhook-id'])).size).toBe(1)
  })

  test('behavior: an event not received within the schedule is given up on and its endpoint is marked failing, until a delivery succeeds', async () => {
    let up = false
    answers.set('/down', () => ({ status: up ? 200 : 503 }))
    const endpoint = await register('/down')
    const gaveUpBefore = await metric('gave_up')
    const invoice = await ctx.devnet.newInvoice(parseUnits('5', 6))
    await payDirectly(invoice.id, parseUnits('5', 6))
    const listed = async () => (await merchantCall('GET', '/v1/webhook-endpoints')).body.endpoints.find((candidate: { id: string }) => candidate.id === endpoint.id)
    await expect.poll(async () => (await listed()).status, { timeout: 15_000, interval: 200 }).toBe('failing')
    expect((await listed()).failingSince).toEqual(expect.any(String))
    expect((await metric('gave_up')) - gaveUpBefore).toBe(1)
    const tried = receiver.at('/down').length
    // tried within the window only: about one attempt per retry delay, none after it
    expect(tried).toBeGreaterThanOrEqual(3)
    expect(tried).toBeLessThanOrEqual(Math.ceil(giveUpAfterMs / retryDelayMs) + 1)
    await sleep(afterRetriesMs)
    expect(receiver.at('/down')).toHaveLength(tried)
    up = true
    const next = await ctx.devnet.newInvoice(parseUnits('6', 6))
    await ctx.devnet.cancelInvoice(next.id)
    await expect.poll(async () => (await listed()).status, { timeout: 10_000, interval: 200 }).toBe('active')
  })
})

describe('secret rotation', () => {
  test('behavior: after a rotation each delivery carries two v1 signatures, and verifies with the new secret and with the old one', async () => {
    const endpoint = await register('/rotated')
    const rotated = await merchantCall('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)
    expect(rotated.status).toBe(200)
    const invoice = await ctx.devnet.newInvoice(parseUnits('8', 6))
    await ctx.devnet.cancelInvoice(invoice.id)
    await expect.poll(() => receiver.at('/rotated').length, { timeout: 10_000, interval: 50 }).toBe(1)
    const [delivery] = receiver.at('/rotated')
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/)
    expect(verified(rotated.body.secret, delivery!).data.invoiceId).toBe(invoice.id.toString())
    expect(verified(endpoint.secret, delivery!).data.invoiceId).toBe(invoice.id.toString())
    expect(() => verified(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, delivery!)).toThrow()
  })
})

describe('npx tsx cli/webhookEndpoint.ts', () => {
  test('default: the command npm start prints registers an endpoint with the devnet key from devnet.json, and its secret verifies the events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-webhook-cli-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const { devnet, server } = ctx
    const { deployment } = devnet
    writeDevnetFile(dir, {
      chainId: deployment.chainId,
      rpcUrl: devnet.anvil.rpcUrl,
      serverUrl: server.url,
      storefrontUrl: 'http://127.0.0.1:8788',
      contracts: { entryPoint: deployment.entryPoint, token: deployment.token, registry: deployment.registry, vaultFactory: deployment.vaultFactory, paymaster: deployment.paymaster },
      merchant: { ...devnet.seed.merchant, ...merchant },
      payer: devnet.seed.payer,
      invoices: [],
      startedAt: new Date().toISOString(),
    })
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/webhookEndpoint.ts', '--url', `${receiver.url}/from-cli`, '--events', 'invoice.canceled'], {
      env: { ...process.env, SVC_DEVNET_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect({ code, output }).toMatchObject({ code: 0 })
    const [, id, url, events] = /^endpoint ([0-9a-f-]{36}): (\S+) receives (.+)$/m.exec(output)!
    expect({ url, events }).toEqual({ url: `${receiver.url}/from-cli`, events: 'invoice.canceled' })
    const secret = /^secret   (whsec_[A-Za-z0-9+/]{43}=)$/m.exec(output)![1]!
    onTestFinished(async () => {
      await merchantCall('DELETE', `/v1/webhook-endpoints/${id}`)
    })
    const invoice = await ctx.devnet.newInvoice(parseUnits('1', 6))
    await ctx.devnet.cancelInvoice(invoice.id)
    await expect.poll(() => receiver.at('/from-cli').length, { timeout: 10_000, interval: 50 }).toBe(1)
    expect(verified(secret, receiver.at('/from-cli')[0]!)).toMatchObject({ type: 'invoice.canceled', data: { invoiceId: invoice.id.toString() } })
  })
})
