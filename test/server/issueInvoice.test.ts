import { createWalletClient, decodeFunctionData, http, parseEther, parseEventLogs, parseUnits, recoverMessageAddress, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { sessionNonceKey, unsignedMerchantOperation } from '../../devnet/merchantOperation'
import { endServerSession, mintTo, serverSessionSeconds, startServerSession } from '../../devnet/seed'
import { localBundler } from '../../server/chain/bundler'
import { chainFor } from '../../server/chain/chainClient'
import { encodeMerchantVaultCall, type MerchantVaultCall } from '../../shared/merchantVaultCall'
import { hashMetadata } from '../../shared/metadataHash'
import { openDatabase } from '../../server/store/database'
import { signedRequest } from '../support/signedRequest'
import { useServer } from '../support/server'
import { payDirectly } from '../support/payDirectly'

const ctx = useServer()
const status = { Issued: 1, Paid: 2, Canceled: 3 } as const
const profile = {
  type: 'entity' as const,
  legalName: 'Northwind Studio Ltd',
  email: 'billing@northwind.example',
  address: { street: '12 Harbour Row', city: 'Bristol', postal: 'BS1 5DB', country: 'GB' },
  registrationNumber: '09876543',
  vatNumber: 'GB123456789',
  tradeName: null,
  taxId: null,
}
let writer: { keyId: string; secret: string }
let reader: { keyId: string; secret: string }
let studioId: string
let customerId: string

/** POST /v1/invoices/issue with `key` (the writing key unless given), signed as a merchant's backend signs. */
function issue(body: unknown, { key = writer, idempotencyKey }: { key?: typeof writer; idempotencyKey?: string } = {}) {
  return signedRequest(ctx.server.url, key, {
    method: 'POST',
    path: '/v1/invoices/issue',
    body: JSON.stringify(body),
    send: { headers: { 'idempotency-key': idempotencyKey ?? crypto.randomUUID() } },
  })
}

const readInvoice = (id: bigint) => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
const inADay = async () => ((await ctx.devnet.clients.public.getBlock()).timestamp + 86_400n).toString()
const vault = () => ctx.devnet.seed.merchant.vault

beforeAll(async () => {
  const { stores } = ctx.server
  studioId = (await stores.studios.findStudioByVault(ctx.devnet.deployment.chainId, vault()))!.id
  writer = await stores.apiKeys.createApiKey({ studioId, name: 'backend', scopes: ['invoice:write', 'customer:write'] })
  reader = await stores.apiKeys.createApiKey({ studioId, name: 'reporting', scopes: ['invoice:read', 'customer:read'] })
  await stores.businessProfiles.putBusinessProfile(studioId, profile)
  const created = await signedRequest(ctx.server.url, writer, {
    method: 'POST',
    path: '/v1/customers',
    body: JSON.stringify({
      type: 'entity',
      legalName: 'Acme Robotics GmbH',
      email: 'accounts@acme-robotics.example',
      address: { street: 'Lindenstraße 4', city: 'Berlin', postal: '10969', country: 'DE' },
      registrationNumber: 'HRB 123456',
    }),
  })
  expect(created.status).toBe(201)
  customerId = created.body.data.id
})

describe('POST /v1/invoices/issue', () => {
  test("default: the chain holds the invoice as asked, issued by the demo vault through the server signer's session, sponsored by our paymaster", async () => {
    const dueAt = await inADay()
    const answer = await issue({ customerId, amount: '1250000000', dueAt, description: 'Website redesign, phase 2' })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const { body } = answer
    expect(body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      invoiceNumber: expect.stringMatching(/^\d+$/),
      amount: '1250000000',
      status: 'Issued',
      issuedAt: expect.stringMatching(/^\d+$/),
      dueAt,
      userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      shareLink: expect.stringMatching(new RegExp(`^${ctx.server.publicUrl}/pay/${body.id}\\?token=svc_tk_[A-Za-z0-9_-]{43}$`)),
      paymentUrl: body.shareLink,
      idempotency: { key: expect.any(String), replayed: false, state: 'confirmed' },
    })
    const onChain = await readInvoice(BigInt(body.id))
    expect(onChain).toMatchObject({ merchant: vault(), status: status.Issued, amount: 1_250_000_000n, dueAt: BigInt(dueAt), invoiceNumber: BigInt(body.invoiceNumber) })

    // the operation: the vault's, under the session module's nonce key, signed by the server's key, with our paymaster
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: body.txHash })
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs }).filter((log) => log.args.userOpHash === body.userOpHash)
    expect(event?.args).toMatchObject({ sender: vault(), success: true, paymaster: ctx.devnet.deployment.paymaster })
    expect(event!.args.nonce >> 64n).toBe(sessionNonceKey(ctx.devnet.deployment.sessionValidator!))
    const transaction = await ctx.devnet.clients.public.getTransaction({ hash: body.txHash })
    const { args } = decodeFunctionData({ abi: entryPoint07Abi, data: transaction.input })
    const [ops] = args as unknown as [{ signature: Hex }[]]
    expect(await recoverMessageAddress({ message: { raw: body.userOpHash }, signature: ops[0]!.signature })).toBe(ctx.devnet.seed.serverSigner.address)

    // the metadata the share link opens names the customer and hashes to the chain's metaHash
    const token = new URL(body.shareLink).searchParams.get('token')
    const opened = await fetch(`${ctx.server.url}/v1/pay/${body.id}/metadata?token=${token}`).then((response) => response.json())
    expect(opened.accessLevel).toBe('full')
    expect(opened.metadata).toMatchObject({
      invoiceNumber: body.invoiceNumber,
      merchant: { name: 'Northwind Studio Ltd', walletAddress: vault(), address: profile.address },
      payer: { name: 'Acme Robotics GmbH', email: 'accounts@acme-robotics.example', address: { city: 'Berlin', country: 'DE' } },
      amount: '1250',
      amountRaw: '1250000000',
      lineItems: [{ description: 'Website redesign, phase 2', quantity: 1, unitPrice: '1250', amount: '1250' }],
    })
    expect(hashMetadata(opened.metadata)).toBe(onChain.metaHash)

    // and a payer can pay it
    await payDirectly(ctx.devnet, BigInt(body.id), 1_250_000_000n)
    expect((await readInvoice(BigInt(body.id))).status).toBe(status.Paid)
  })

  test('behavior: dueDays counts whole days from the request; the same key and payload again answer the same invoice, replayed', async () => {
    const key = crypto.randomUUID()
    const before = BigInt(Math.floor(Date.now() / 1000))
    const first = await issue({ customerId, amount: 5_000_000, dueDays: 30 }, { idempotencyKey: key })
    expect(first.status).toBe(200)
    expect(BigInt(first.body.dueAt) - before).toBeGreaterThanOrEqual(30n * 86_400n)
    expect(BigInt(first.body.dueAt) - before).toBeLessThan(30n * 86_400n + 60n)
    const again = await issue({ customerId, amount: 5_000_000, dueDays: 30 }, { idempotencyKey: key })
    expect(again.body).toEqual({ ...first.body, idempotency: { key, replayed: true, state: 'confirmed' } })
  })

  test('behavior: the idempotency record keeps no share link; after the merchant regenerates the link, a replay answers the new one, which opens the invoice, not the revoked one', async () => {
    const key = crypto.randomUUID()
    const first = await issue({ customerId, amount: 7_000_000, dueDays: 10 }, { idempotencyKey: key })
    expect(first.status).toBe(200)
    const token = new URL(first.body.shareLink).searchParams.get('token')!
    // the database as anyone who reads it or its backups would
    const db = await openDatabase({ url: ctx.config.DATABASE_URL! })
    const records = await db.query<{ answer: unknown }>('SELECT answer FROM idempotency_records WHERE idempotency_key = $1', [key]).finally(() => db.close())
    expect(records).toHaveLength(1)
    expect(JSON.stringify(records[0]!.answer)).toContain(first.body.id)
    expect(JSON.stringify(records[0]!.answer)).not.toContain(token)
    expect(JSON.stringify(records[0]!.answer)).not.toContain('svc_tk_')
    const regenerated = await signedRequest(ctx.server.url, writer, { method: 'POST', path: `/v1/invoices/${first.body.id}/share/regenerate` })
    expect(regenerated.status).toBe(200)
    const again = await issue({ customerId, amount: 7_000_000, dueDays: 10 }, { idempotencyKey: key })
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ ...first.body, shareLink: regenerated.body.shareLink, paymentUrl: regenerated.body.shareLink, idempotency: { key, replayed: true, state: 'confirmed' } })
    expect(again.body.shareLink).not.toBe(first.body.shareLink)
  })

  describe('refusals', () => {
    test('a missing customer is a validation error; an unknown or deleted one is not found', async () => {
      const dueAt = await inADay()
      const missing = await issue({ amount: '1000000', dueAt })
      expect(missing.status).toBe(400)
      expect(missing.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ path: 'body.customerId' }] })
      const unknown = await issue({ customerId: crypto.randomUUID(), amount: '1000000', dueAt })
      expect(unknown.status).toBe(404)
      expect(unknown.body).toMatchObject({ error: 'NOT_FOUND', code: 'NOT_FOUND' })
    })

    test('both or neither of dueAt and dueDays, a description of 501 characters, a zero or a fractional amount: 400 VALIDATION_ERROR naming the field', async () => {
      const dueAt = await inADay()
      const cases: [unknown, string][] = [
        [{ customerId, amount: '1000000', dueAt, dueDays: 3 }, 'body.dueAt'],
        [{ customerId, amount: '1000000' }, 'body.dueAt'],
        [{ customerId, amount: '1000000', dueAt, description: 'x'.repeat(501) }, 'body.description'],
        [{ customerId, amount: '0', dueAt }, 'body.amount'],
        [{ customerId, amount: '1.5', dueAt }, 'body.amount'],
        [{ customerId, amount: '1000000', dueAt: '1' }, 'body.dueAt'],
        // past the last date a calendar can write: the document could not state it
        [{ customerId, amount: '1000000', dueAt: '8640000000001' }, 'body.dueAt'],
        [{ customerId, amount: '1000000', dueAt: (2n ** 64n - 1n).toString() }, 'body.dueAt'],
      ]
      for (const [body, path] of cases) {
        const answer = await issue(body)
        expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400)
        expect(answer.body.error).toBe('VALIDATION_ERROR')
        expect(answer.body.details.map((issue: { path: string }) => issue.path)).toContain(path)
      }
    })

    test('a key without invoice:write is refused with 403 FORBIDDEN, and nothing is issued', async () => {
      const count = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })
      const answer = await issue({ customerId, amount: '1000000', dueAt: await inADay() }, { key: reader })
      expect(answer.status).toBe(403)
      expect(answer.body).toMatchObject({ error: 'FORBIDDEN' })
      expect(await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })).toBe(count)
    })

    test('an incomplete business profile: 400 PROFILE_INCOMPLETE naming what is missing', async () => {
      await ctx.server.stores.businessProfiles.putBusinessProfile(studioId, { ...profile, registrationNumber: null, legalName: null })
      try {
        const answer = await issue({ customerId, amount: '1000000', dueAt: await inADay() })
        expect(answer.status).toBe(400)
        expect(answer.body).toMatchObject({ error: 'PROFILE_INCOMPLETE', code: 'PROFILE_INCOMPLETE' })
        expect(answer.body.message).toMatch(/legalName.*registrationNumber/)
      } finally {
        await ctx.server.stores.businessProfiles.putBusinessProfile(studioId, profile)
      }
    })
  })
})

describe("the server signer's session bounds", () => {
  /** The server's key signs `call` for the demo vault and a bundler like the server's own sends it. */
  async function sendAsServer(call: MerchantVaultCall) {
    const { devnet } = ctx
    const executor = privateKeyToAccount(generatePrivateKey())
    await devnet.test.setBalance({ address: executor.address, value: parseEther('1') })
    const wallet = createWalletClient({ chain: chainFor(devnet.deployment.chainId, devnet.anvil.rpcUrl), transport: http(devnet.anvil.rpcUrl), account: executor })
    const bundler = localBundler({ client: devnet.clients.public as never, wallet, deployment: devnet.deployment })
    const key = sessionNonceKey(devnet.deployment.sessionValidator!)
    const { userOp, userOpHash } = await unsignedMerchantOperation(devnet.clients.public, devnet.deployment, { vault: vault(), callData: encodeMerchantVaultCall(call), key })
    userOp.signature = await privateKeyToAccount(ctx.config.SERVER_SIGNER_PRIVATE_KEY!).signMessage({ message: { raw: userOpHash } })
    return bundler.send(userOp)
  }
  const balanceOf = (address: Hex) => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [address] })

  test("a transfer out of the vault and a call to another registry, signed with the server's key, are refused before they reach the chain", async () => {
    const { deployment } = ctx.devnet
    await mintTo(ctx.devnet.clients, deployment, vault(), parseUnits('10', 6))
    const thief = privateKeyToAccount(generatePrivateKey()).address
    await expect(sendAsServer({ kind: 'Withdrawal', token: deployment.token, amount: parseUnits('10', 6), to: thief })).rejects.toThrow(/AA24 signature error/)
    const { timestamp } = await ctx.devnet.clients.public.getBlock()
    await expect(
      sendAsServer({ kind: 'Issue', registry: thief, token: deployment.token, amount: 1n, dueAt: timestamp + 600n, metaHash: `0x${'ab'.repeat(32)}`, tokenURI: '' }),
    ).rejects.toThrow(/AA24 signature error/)
    expect(await balanceOf(thief)).toBe(0n)
    expect(await balanceOf(vault())).toBeGreaterThanOrEqual(parseUnits('10', 6))
  })

  test("after the owner's EndSession the server answers no_active_signer, and the key's own operation is refused", async () => {
    const { devnet } = ctx
    await endServerSession(devnet.anvil.rpcUrl, devnet.deployment, devnet.seed.merchant)
    const answer = await issue({ customerId, amount: '1000000', dueAt: await inADay() })
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject({ error: 'no_active_signer', code: 'no_active_signer' })
    const { timestamp } = await devnet.clients.public.getBlock()
    await expect(
      sendAsServer({ kind: 'Issue', registry: devnet.deployment.registry, token: devnet.deployment.token, amount: 1n, dueAt: timestamp + 600n, metaHash: `0x${'ab'.repeat(32)}`, tokenURI: '' }),
    ).rejects.toThrow(/AA24 signature error/)
    // the owner starts it again: issuing works again
    await startServerSession(devnet.anvil.rpcUrl, devnet.deployment, devnet.seed.merchant, devnet.seed.serverSigner.address, timestamp + serverSessionSeconds)
    expect((await issue({ customerId, amount: '1000000', dueAt: await inADay() })).status).toBe(200)
  })

  test("after the session's end the server answers no_active_signer, and the EntryPoint refuses the key's operation as expired", async () => {
    const { devnet } = ctx
    await devnet.test.increaseTime({ seconds: Number(serverSessionSeconds) + 86_400 })
    await devnet.test.mine({ blocks: 1 })
    const dueAt = await inADay()
    const answer = await issue({ customerId, amount: '1000000', dueAt })
    expect(answer.status).toBe(403)
    expect(answer.body.code).toBe('no_active_signer')
    await expect(
      sendAsServer({ kind: 'Issue', registry: devnet.deployment.registry, token: devnet.deployment.token, amount: 1n, dueAt: BigInt(dueAt), metaHash: `0x${'ab'.repeat(32)}`, tokenURI: '' }),
    ).rejects.toThrow(/AA22 expired or not due/)
  })
})
