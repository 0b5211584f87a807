import { randomBytes, randomUUID } from 'node:crypto'
import { getAbiItem, getAddress, parseUnits, toEventSelector, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { demoMerchantUser, devnetApiAudience, devnetIdentityClient, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { demoBusinessProfile } from '../../devnet/seedMerchantAccess'
import { sendMerchantOperation } from '../../devnet/merchantOperation'
import { payDirectly } from '../support/payDirectly'
import { useServer } from '../support/server'
import { answerOf, signedRequest } from '../support/signedRequest'
import { workerSigningKey } from '../support/identityKey'

const redirectUri = 'http://127.0.0.1:9/signed-in'
const client = devnetIdentityClient([redirectUri])
/** The owner of the second studio, whose vault is not deployed. */
const undeployedOwner = { subject: 'undeployed-owner', email: 'owner@not-deployed.test', password: 'undeployed-owner-password' }
let provider: RunningIdentityProvider

// SPEC 4.1: a studio read by its id is its owner's, signed in with the identity provider's token
const ctx = useServer({
  overrides: { WEBHOOK_INTERVAL_MS: '50', WEBHOOK_CONFIRMATIONS: '1' },
  beforeServer: async () => {
    provider = await startIdentityProvider({ port: 0, audience: devnetApiAudience, users: [demoMerchantUser, undeployedOwner], clients: [client], signingKey: await workerSigningKey() })
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
    return { JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience }
  },
})
afterAll(async () => {
  await provider?.close()
})
type Key = { keyId: string; secret: string }
let dashboardKey: Key, invoiceKey: Key, otherKey: Key, undeployedKey: Key
let studioId: string, otherStudioId: string
let vault: Address
let payment: { id: bigint; payer: Address; txHash: `0x${string}`; amount: bigint }
const refunded = 1_000_000n

let ownerToken: string, undeployedOwnerToken: string
const get = (path: string, query = '', as = dashboardKey) => signedRequest(ctx.server.url, as, { method: 'GET', path, query })
/** A read as the studio's signed-in owner (the /:id routes), or as another studio's. */
const getAsOwner = async (path: string, query = '', token = ownerToken) => answerOf(await fetch(`${ctx.server.url}${path}${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${token}` } }))
const signIn = async (user: { email: string; password: string }) =>
  (await signInWithPassword({ issuer: provider.issuer, clientId: client.clientId, redirectUri, email: user.email, password: user.password, resource: devnetApiAudience })).accessToken
const randomAddress = () => privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address

/** What the index holds for the vault, counted by the database directly. */
async function indexCounts(merchant: Address) {
  const [row] = await ctx.server.stores.db.query<{ total: string; issued: string; paid: string; canceled: string; paid_amount: string; pending_amount: string }>(
    `SELECT count(*)::text AS total, count(*) FILTER (WHERE status = 'Issued')::text AS issued, count(*) FILTER (WHERE status = 'Paid')::text AS paid,
       count(*) FILTER (WHERE status = 'Canceled')::text AS canceled, COALESCE(sum(amount) FILTER (WHERE status = 'Paid'), 0)::text AS paid_amount,
       COALESCE(sum(amount) FILTER (WHERE status = 'Issued'), 0)::text AS pending_amount
     FROM invoice_index WHERE chain_id = $1 AND registry = $2 AND merchant = $3`,
    [ctx.devnet.deployment.chainId, ctx.devnet.deployment.registry.toLowerCase(), merchant.toLowerCase()],
  )
  return row!
}

/** Waits until the index has read through the chain's head. */
async function indexCaughtUp() {
  const head = await ctx.devnet.clients.public.getBlockNumber({ cacheTime: 0 })
  const deadline = Date.now() + 15_000
  for (;;) {
    const { body } = await get('/v1/studios/me/invoices/stats')
    if (body.metadata?.indexedBlock && BigInt(body.metadata.indexedBlock) >= head) return
    if (Date.now() > deadline) throw new Error('the index did not catch up')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

beforeAll(async () => {
  const { devnet, server } = ctx
  vault = devnet.seed.merchant.vault
  const studio = (await server.stores.studios.findStudioByVault(devnet.deployment.chainId, vault))!
  studioId = studio.id
  await server.stores.businessProfiles.putBusinessProfile(studioId, demoBusinessProfile)
  dashboardKey = await server.stores.apiKeys.createApiKey({ studioId, name: 'dashboard', scopes: ['dashboard:read'] })
  invoiceKey = await server.stores.apiKeys.createApiKey({ studioId, name: 'invoices', scopes: ['invoice:read'] })
  const other = await server.stores.studios.createStudio({ name: 'Not deployed', vaultAddress: randomAddress(), chainId: devnet.deployment.chainId })
  otherStudioId = other.id
  otherKey = await server.stores.apiKeys.createApiKey({ studioId: other.id, name: 'other', scopes: ['read'] })
  undeployedKey = otherKey
  await seedMerchantLogin(server.stores, provider.issuer, studioId)
  await seedMerchantLogin(server.stores, provider.issuer, other.id, undeployedOwner)
  ownerToken = await signIn(demoMerchantUser)
  undeployedOwnerToken = await signIn(undeployedOwner)
  const amount = parseUnits('250.000001', 6)
  const { id } = await devnet.newInvoice(amount)
  const { payer, receipt } = await payDirectly(devnet, id, amount)
  payment = { id, payer: getAddress(payer.vault), txHash: receipt.transactionHash, amount }
  // the vault refunds 1 USDC of it to the payer: money going out of the vault
  const owner = privateKeyToAccount(devnet.seed.merchant.ownerPrivateKey)
  const refund = { kind: 'Refund', registry: devnet.deployment.registry, invoice: id, payer: payment.payer, token: devnet.deployment.token, amount: refunded } as const
  await sendMerchantOperation(devnet.anvil.rpcUrl, devnet.deployment, { vault, call: refund, signer: { kind: 'owner', privateKey: devnet.seed.merchant.ownerPrivateKey }, bundler: owner })
  await devnet.newInvoice(parseUnits('7', 6))
  const { id: canceled } = await devnet.newInvoice(parseUnits('8', 6))
  await devnet.cancelInvoice(canceled)
  await indexCaughtUp()
}, 60_000)

describe('GET /v1/studios/me', () => {
  test('default: the studio with its business profile, whether it is complete, and its vault as the chain has it', async () => {
    const { status, body } = await get('/v1/studios/me')
    expect(status).toBe(200)
    expect(body.data).toMatchObject({ id: studioId, vaultAddress: vault, vaultChainId: ctx.devnet.deployment.chainId, vaultDeploymentStatus: 'deployed', profileComplete: true })
    expect(body.data.profile).toMatchObject({ ...demoBusinessProfile, updatedAt: expect.any(String) })
    expect(new Date(body.data.createdAt).toISOString()).toBe(body.data.createdAt)
  })

  test('behavior: a studio whose vault has no code yet reads not_deployed, with no profile and profileComplete false', async () => {
    const { body } = await get('/v1/studios/me', '', undeployedKey)
    expect(body.data).toMatchObject({ id: otherStudioId, vaultDeploymentStatus: 'not_deployed', profile: null, profileComplete: false })
  })

  test('errors: a key without dashboard:read is a 403; no credentials a 401', async () => {
    const { status, body } = await get('/v1/studios/me', '', invoiceKey)
    expect(status).toBe(403)
    expect(body).toMatchObject({ error: 'FORBIDDEN' })
    expect((await fetch(`${ctx.server.url}/v1/studios/me`)).status).toBe(401)
  })
})

describe('GET /v1/studios/me/balance', () => {
  test("default: the vault's balanceOf on the chain, formatted exactly", async () => {
    const { status, body } = await get('/v1/studios/me/balance')
    expect(status).toBe(200)
    const onChain = await ctx.devnet.balanceOf(vault)
    expect(body).toMatchObject({ success: true, balance: onChain.toString(), symbol: 'USDC', decimals: 6, token: ctx.devnet.deployment.token, vaultAddress: vault, vaultDeployed: true })
    expect(body.network).toEqual({ chainId: ctx.devnet.deployment.chainId, name: expect.any(String) })
    expect(body.note).toBeUndefined()
    expect(parseUnits(body.formatted, 6)).toBe(onChain)
    expect(body.formatted).toMatch(/^\d+\.\d{6}$/)
    // the payment's net reached the vault, less what it refunded: it is in the balance
    expect(onChain).toBeGreaterThanOrEqual(payment.amount - payment.amount / 100n - refunded)
  })

  test('behavior: before the vault is deployed it reads zero, with the setup note', async () => {
    const { body } = await get('/v1/studios/me/balance', '', undeployedKey)
    expect(body).toMatchObject({ success: true, balance: '0', formatted: '0.000000', vaultDeployed: false, note: expect.stringContaining('not deployed') })
  })
})

describe('GET /v1/studios/me/invoices/stats', () => {
  test('default: the full counts and sums of the index, not capped at 50', async () => {
    const { status, body } = await get('/v1/studios/me/invoices/stats')
    expect(status).toBe(200)
    const counted = await indexCounts(vault)
    expect(body.stats).toMatchObject({
      totalCount: Number(counted.total),
      pendingCount: Number(counted.issued),
      paidCount: Number(counted.paid),
      canceledCount: Number(counted.canceled),
      totalPaidAmount: counted.paid_amount,
      totalPendingAmount: counted.pending_amount,
      complete: true,
    })
    expect(body.stats.paidCount).toBeGreaterThanOrEqual(1)
    expect(body.stats.canceledCount).toBeGreaterThanOrEqual(1)
    expect(BigInt(body.stats.totalNetAmount) + BigInt(body.stats.totalFees)).toBe(BigInt(body.stats.totalPaidAmount))
    expect(BigInt(body.stats.totalRefunded)).toBeGreaterThanOrEqual(refunded)
  })

  test('behavior: 60 more rows of one status are all counted (no cap of 50 per status)', async () => {
    const merchant = randomAddress()
    const studio = await ctx.server.stores.studios.createStudio({ name: 'Busy', vaultAddress: merchant, chainId: ctx.devnet.deployment.chainId })
    const busyKey = await ctx.server.stores.apiKeys.createApiKey({ studioId: studio.id, name: 'busy', scopes: ['dashboard:read'] })
    const { chainId, registry, token } = ctx.devnet.deployment
    await ctx.server.stores.db.query(
      `INSERT INTO invoice_index (chain_id, registry, invoice_id, merchant, invoice_number, token, amount, status, meta_hash, issued_at, due_at, issued_block, issued_tx, changed_block, changed_block_hash)
       SELECT $1, $2, 2000000000 + n, $3, n, $4, 1000000, 'Issued', $5, 100, 200, 1, $5, 1, $5 FROM generate_series(1, 60) AS n`,
      [chainId, registry.toLowerCase(), merchant.toLowerCase(), token.toLowerCase(), `0x${'ab'.repeat(32)}`],
    )
    const { body } = await get('/v1/studios/me/invoices/stats', '', busyKey)
    expect(body.stats).toMatchObject({ totalCount: 60, pendingCount: 60, paidCount: 0, totalPendingAmount: '60000000' })
    await ctx.server.stores.db.query('DELETE FROM invoice_index WHERE merchant = $1', [merchant.toLowerCase()])
  })
})

/** Another studio's id, and an id no studio has, are refused alike; so is the studio's own API key,
 * which reads /me (SPEC 4.1 and 5.6: by id, the owner's token only). */
async function refusedForOthers(suffix: string) {
  for (const id of [otherStudioId, randomUUID()]) {
    const { status, body } = await getAsOwner(`/v1/studios/${id}${suffix}`)
    expect(status).toBe(403)
    expect(body).toMatchObject({ error: 'FORBIDDEN' })
  }
  expect((await getAsOwner(`/v1/studios/not-a-uuid${suffix}`)).body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'id' })] })
  const byKey = await get(`/v1/studios/${studioId}${suffix}`)
  expect({ status: byKey.status, code: byKey.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' })
}

describe('GET /v1/studios/:id', () => {
  test("behavior: the caller's own id answers the studio /me answers; another studio's id is a 403", async () => {
    expect((await getAsOwner(`/v1/studios/${studioId}`)).body).toEqual({ success: true, studio: (await get('/v1/studios/me')).body.data })
    await refusedForOthers('')
  })
})

describe('GET /v1/studios/:id/balance', () => {
  test("behavior: the caller's own id answers the balance /me/balance answers; another studio's id is a 403", async () => {
    expect((await getAsOwner(`/v1/studios/${studioId}/balance`)).body.balance).toBe((await ctx.devnet.balanceOf(vault)).toString())
    await refusedForOthers('/balance')
  })
})

describe('GET /v1/studios/:id/invoices/stats', () => {
  test("behavior: the caller's own id answers the statistics /me answers; another studio's id is a 403", async () => {
    expect((await getAsOwner(`/v1/studios/${studioId}/invoices/stats`)).body.stats).toEqual((await get('/v1/studios/me/invoices/stats')).body.stats)
    await refusedForOthers('/invoices/stats')
  })
})

describe('GET /v1/studios/:id/transactions', () => {
  test("default: the vault's own activity from the chain, newest first: the payment's net coming in, in the payment's transaction, and the vault's operations", async () => {
    const { status, body } = await getAsOwner(`/v1/studios/${studioId}/transactions`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ success: true, vaultAddress: vault, chainId: ctx.devnet.deployment.chainId })
    expect(body.pagination).toMatchObject({ page: 1, limit: 20, hasPrev: false })
    const incoming = (body.transactions as any[]).find((item) => item.kind === 'token_transfer' && item.transactionHash === payment.txHash)
    expect(incoming).toMatchObject({ direction: 'in', from: payment.payer, to: vault, token: ctx.devnet.deployment.token, amount: (payment.amount - payment.amount / 100n).toString() })
    const outgoing = (body.transactions as any[]).find((item) => item.kind === 'token_transfer' && item.direction === 'out')
    expect(outgoing).toMatchObject({ from: vault, to: payment.payer, amount: refunded.toString() })
    const operations = (body.transactions as any[]).filter((item) => item.kind === 'user_operation')
    expect(operations.length).toBeGreaterThan(0)
    for (const operation of operations.slice(0, 3)) {
      const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: operation.transactionHash })
      expect(receipt.logs.some((log) => log.topics[1] === operation.userOpHash)).toBe(true)
      expect(operation.success).toBe(true)
    }
    // the last operation is the cancel of the invoice issued last
    const cancel = operations[0]
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: cancel.transactionHash })
    expect(receipt.logs.some((log) => getAddress(log.address) === ctx.devnet.deployment.registry && log.topics[0] === toEventSelector(getAbiItem({ abi: invoiceRegistryAbi, name: 'InvoiceCanceled' })))).toBe(true)
    const places = (body.transactions as any[]).map((item) => [BigInt(item.blockNumber), item.logIndex] as const)
    for (let i = 1; i < places.length; i++) expect(places[i - 1]![0] > places[i]![0] || (places[i - 1]![0] === places[i]![0] && places[i - 1]![1] > places[i]![1])).toBe(true)
  })

  test('parameters: page and limit walk the whole activity once; limit is clamped to 1 through 100', async () => {
    const whole = (await getAsOwner(`/v1/studios/${studioId}/transactions`, 'limit=100')).body
    const total = whole.pagination.total as number
    expect(whole.transactions).toHaveLength(Math.min(total, 100))
    const seen: string[] = []
    for (let page = 1; ; page++) {
      const { body } = await getAsOwner(`/v1/studios/${studioId}/transactions`, `page=${page}&limit=3`)
      expect(body.pagination).toMatchObject({ page, limit: 3, total, totalPages: Math.ceil(total / 3), hasPrev: page > 1 })
      seen.push(...body.transactions.map((item: any) => `${item.transactionHash}:${item.logIndex}`))
      if (!body.pagination.hasNext) break
    }
    expect(seen).toEqual(whole.transactions.map((item: any) => `${item.transactionHash}:${item.logIndex}`))
    expect((await getAsOwner(`/v1/studios/${studioId}/transactions`, 'limit=1000')).body.pagination.limit).toBe(100)
    expect((await getAsOwner(`/v1/studios/${studioId}/transactions`, 'limit=0')).body.pagination.limit).toBe(1)
    const beyond = (await getAsOwner(`/v1/studios/${studioId}/transactions`, `page=${total + 1}&limit=1`)).body
    expect(beyond).toMatchObject({ transactions: [], pagination: { hasNext: false, hasPrev: true } })
  })

  test("errors: page 0 or a non-number is a 400; another studio's id a 403", async () => {
    expect((await getAsOwner(`/v1/studios/${studioId}/transactions`, 'page=0')).body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'page' })] })
    expect((await getAsOwner(`/v1/studios/${studioId}/transactions`, 'limit=ten')).body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'limit' })] })
    expect((await getAsOwner(`/v1/studios/${studioId}/transactions`, '', undeployedOwnerToken)).status).toBe(403)
    // `me` is the caller's own studio, whichever it is
    expect((await getAsOwner('/v1/studios/me/transactions', '', undeployedOwnerToken)).body).toMatchObject({ success: true, transactions: [], pagination: { total: 0 } })
  })
})

describe('GET /v1/protocol/stats', () => {
  test('default: public, from any origin: the index\'s totals over the whole registry and the registry\'s own counter', async () => {
    const response = await fetch(`${ctx.server.url}/v1/protocol/stats`, { headers: { origin: 'https://elsewhere.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const body = await response.json()
    const onChain = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })
    expect(body).toMatchObject({ success: true, chainId: ctx.devnet.deployment.chainId, registry: ctx.devnet.deployment.registry, onChainInvoiceCount: onChain.toString(), retailFeeBps: 100 })
    const [row] = await ctx.server.stores.db.query<{ total: string; paid: string; payers: string; gross: string }>(
      `SELECT count(*)::text AS total, count(*) FILTER (WHERE status = 'Paid')::text AS paid, count(DISTINCT payer)::text AS payers,
         COALESCE(sum(amount) FILTER (WHERE status = 'Paid'), 0)::text AS gross FROM invoice_index WHERE chain_id = $1 AND registry = $2`,
      [ctx.devnet.deployment.chainId, ctx.devnet.deployment.registry.toLowerCase()],
    )
    expect(body.invoices.total).toBe(Number(row!.total))
    expect(body.invoices.paid).toBe(Number(row!.paid))
    expect(body.payers).toBe(Number(row!.payers))
    // every invoice the registry gave is indexed
    expect(BigInt(body.invoices.total)).toBe(onChain)
    expect(body.volumes).toEqual([expect.objectContaining({ token: ctx.devnet.deployment.token, symbol: 'USDC', decimals: 6, paidAmount: row!.gross })])
    const [volume] = body.volumes
    expect(BigInt(volume.fees) + BigInt(volume.netAmount)).toBe(BigInt(volume.paidAmount))
  })
})

describe('GET /v1/accounts/:address/metrics', () => {
  test("default: what the registry says of an address as payer and as merchant", async () => {
    const asPayer = (await get(`/v1/accounts/${payment.payer}/metrics`)).body
    expect(asPayer.asPayer).toMatchObject({ paidCount: 1, volumes: [expect.objectContaining({ paidAmount: payment.amount.toString(), netAmount: (payment.amount - payment.amount / 100n).toString() })] })
    expect(asPayer.asMerchant).toMatchObject({ onChainInvoiceCount: '0', invoices: { total: 0 }, feeBps: 100 })
    const asMerchant = (await get(`/v1/accounts/${vault}/metrics`)).body
    const onChain = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'merchantInvoiceCount', args: [vault] })
    const counted = await indexCounts(vault)
    expect(asMerchant.asMerchant).toMatchObject({ onChainInvoiceCount: onChain.toString(), invoices: { total: Number(counted.total), paid: Number(counted.paid), canceled: Number(counted.canceled) } })
    expect(asMerchant.asPayer).toMatchObject({ paidCount: 0, firstPaidAt: null, volumes: [] })
  })

  test('errors: a malformed address is a 400; no credentials a 401', async () => {
    expect((await get('/v1/accounts/0x1234/metrics')).status).toBe(400)
    expect((await fetch(`${ctx.server.url}/v1/accounts/${vault}/metrics`)).status).toBe(401)
  })
})
