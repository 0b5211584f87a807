import { createWalletClient, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { localBundler } from '../../server/chain/bundler'
import { chainFor } from '../../server/chain/chainClient'
import { fromWireUserOp } from '../../shared/userOpWire'
import { decodeVerifyingPaymasterWindow } from '../../shared/verifyingPaymaster'
import { signPermit } from '../support/devnet'
import { api, signUserOp, useServer } from '../support/server'

// One unit of the token: what an attacker's own invoice asks, and all each of its vaults holds.
const unit = 1n
const ctx = useServer({
  // the per-invoice limit at its default (3); the others small, so that a test reaches them quickly.
  // The client is the X-Forwarded-For entry one proxy wrote: each test is a client of its own.
  overrides: { TRUSTED_PROXY_HOPS: '1', SPONSORSHIP_LIMIT_PER_OWNER: '2', SPONSORSHIP_LIMIT_PER_CLIENT: '4' },
})
const base = () => ctx.server.url
type Payer = Awaited<ReturnType<typeof ctx.devnet.newPayer>>

/** The payer's permit and /prepare, as a client behind `client` sends them. */
async function prepare(invoiceId: bigint, payer: Payer, { client, deadline }: { client: string; deadline?: bigint }) {
  const permitDeadline = deadline ?? BigInt(Math.floor(Date.now() / 1000) + 3_600)
  const signed = await signPermit(ctx.devnet.clients.public, ctx.devnet.deployment, { ownerPrivateKey: payer.ownerPrivateKey, vault: payer.vault, value: unit, deadline: permitDeadline })
  const permit = { deadline: permitDeadline.toString(), v: signed.v, r: signed.r, s: signed.s }
  const response = await fetch(`${base()}/v1/pay/${invoiceId}/prepare`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ payerAddress: payer.vault, ownerAddress: payer.owner, permit }),
  })
  return { status: response.status, body: await response.json(), headers: response.headers, permit }
}

const windowOf = (paymasterData: Hex) => decodeVerifyingPaymasterWindow(paymasterData)!.validUntil
const nowSeconds = () => Math.floor(Date.now() / 1000)

async function payers(count: number) {
  const made: Payer[] = []
  for (let i = 0; i < count; i++) made.push(await ctx.devnet.newPayer(unit))
  return made
}

describe('sponsorship limits', () => {
  test('behavior: eight funded vaults prepare one 1-unit invoice: three are sponsored, the rest answer 429 SPONSORSHIP_LIMIT with Retry-After', async () => {
    const invoice = await ctx.devnet.newInvoice(unit)
    const vaults = await payers(8)
    // each from an address of its own: only the invoice's count is in play
    const answers = []
    for (const [i, payer] of vaults.entries()) answers.push(await prepare(invoice.id, payer, { client: `198.51.100.${i + 1}` }))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429, 429, 429, 429])
    for (const refused of answers.slice(3)) {
      expect(refused.body).toMatchObject({ error: 'SPONSORSHIP_LIMIT', code: 'SPONSORSHIP_LIMIT', limit: 'perInvoice', max: 3 })
      const retryAfter = Number(refused.headers.get('retry-after'))
      // when the oldest of the three sponsorships ends: within the 15-minute window
      expect(retryAfter).toBeGreaterThan(840)
      expect(retryAfter).toBeLessThanOrEqual(900)
      expect(refused.body.retryAfterSeconds).toBe(retryAfter)
    }

    // a newer prepare from a vault already counted replaces its older one: still three
    const again = await prepare(invoice.id, vaults[0]!, { client: '198.51.100.1' })
    expect(again.status).toBe(200)
    // the same vault's operation (within the same second it is the very same one, window included)
    expect(again.body.userOp.sender).toBe(answers[0]!.body.userOp.sender)
    expect((await prepare(invoice.id, vaults[3]!, { client: '198.51.100.4' })).status).toBe(429)
  })

  test('behavior: concurrent prepares cannot both take the last slot', async () => {
    const invoice = await ctx.devnet.newInvoice(unit)
    const vaults = await payers(6)
    const answers = await Promise.all(vaults.map((payer, i) => prepare(invoice.id, payer, { client: `198.51.101.${i + 1}` })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(3)
  })

  test("behavior: a vault's operations all use its one nonce, so preparing for three invoices leaves one live sponsorship: each replaces the one before (only one of them could ever run), and the invoice it left has its place back", async () => {
    const [payer] = await payers(1)
    const invoices = [await ctx.devnet.newInvoice(unit), await ctx.devnet.newInvoice(unit), await ctx.devnet.newInvoice(unit)]
    const answers = []
    for (const [i, invoice] of invoices.entries()) answers.push(await prepare(invoice.id, payer!, { client: `198.51.102.${i + 1}` }))
    // the owner's limit is 2 here: one live operation never reaches it
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(new Set(answers.map((answer) => BigInt(answer.body.userOp.nonce)))).toEqual(new Set([0n]))
    // the first invoice counts none of the vault's operations now: three other vaults fill its three places
    const others = await payers(4)
    const forFirst = []
    for (const [i, other] of others.entries()) forFirst.push((await prepare(invoices[0]!.id, other, { client: `198.51.102.${i + 10}` })).status)
    expect(forFirst).toEqual([200, 200, 200, 429])
  })

  test('behavior: one client (an IPv6 /64 as one) has at most SPONSORSHIP_LIMIT_PER_CLIENT live sponsorships', async () => {
    const vaults = await payers(5)
    const answers = []
    for (const [i, payer] of vaults.entries()) {
      const invoice = await ctx.devnet.newInvoice(unit)
      answers.push(await prepare(invoice.id, payer, { client: `2001:db8:7:7::${i + 1}` }))
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429])
    expect(answers[4]!.body).toMatchObject({ code: 'SPONSORSHIP_LIMIT', limit: 'perClient', max: 4 })
    // the next /64 is another client
    const invoice = await ctx.devnet.newInvoice(unit)
    expect((await prepare(invoice.id, vaults[4]!, { client: '2001:db8:7:8::1' })).status).toBe(200)
  })

  test('behavior: a sponsorship ends within 15 minutes, and never after the permit', async () => {
    const [long, short] = await payers(2)
    const invoice = await ctx.devnet.newInvoice(unit)
    const before = nowSeconds()
    const hour = await prepare(invoice.id, long!, { client: '198.51.103.1' })
    expect(hour.status).toBe(200)
    const window = windowOf(hour.body.userOp.paymasterData)
    expect(window).toBeGreaterThanOrEqual(before + 900)
    expect(window).toBeLessThanOrEqual(nowSeconds() + 900)
    // the prepared payment ends with its sponsorship
    expect(Date.parse(hour.body.expiresAt) / 1000).toBe(window)

    const deadline = BigInt(nowSeconds() + 600)
    const tenMinutes = await prepare(invoice.id, short!, { client: '198.51.103.2', deadline })
    expect(tenMinutes.status).toBe(200)
    expect(windowOf(tenMinutes.body.userOp.paymasterData)).toBe(Number(deadline))
  })
})

describe('the local executor', () => {
  test('behavior: two vaults prepared for one invoice; the first pays; the second is refused before anything is sent or paid', async () => {
    const { deployment, clients } = ctx.devnet
    const invoice = await ctx.devnet.newInvoice(unit)
    const [first, second] = await payers(2)
    const one = await prepare(invoice.id, first!, { client: '198.51.104.1' })
    const two = await prepare(invoice.id, second!, { client: '198.51.104.2' })
    expect([one.status, two.status]).toEqual([200, 200])
    const paid = await api(base(), `/v1/pay/${invoice.id}`, { userOp: await signUserOp(first!, one.body.userOp, one.body.userOpHash) })
    expect(paid.body.status).toBe('confirmed')

    const executor = privateKeyToAccount(ctx.config.BUNDLER_PRIVATE_KEY!)
    const deposit = () => clients.public.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'balanceOf', args: [deployment.paymaster] })
    const nonce = () => clients.public.getTransactionCount({ address: executor.address })
    const [depositBefore, nonceBefore] = [await deposit(), await nonce()]
    const signed = await signUserOp(second!, two.body.userOp, two.body.userOpHash)

    // through the route: the invoice is Paid, refused before the executor is asked
    const refused = await api(base(), `/v1/pay/${invoice.id}`, { userOp: signed })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('INVALID_STATUS')

    // the executor itself, handed the operation: its validation passes, its execution would revert
    const wallet = createWalletClient({ chain: chainFor(deployment.chainId, ctx.devnet.anvil.rpcUrl), transport: http(ctx.devnet.anvil.rpcUrl), account: executor })
    const bundler = localBundler({ client: clients.public, wallet, deployment })
    const sent = bundler.send(fromWireUserOp(signed))
    await expect(sent).rejects.toMatchObject({ code: 'USEROP_REJECTED', message: expect.stringContaining('would revert in execution') })
    await expect(sent).rejects.toThrow(/InvoiceDiffers/)
    expect(await nonce()).toBe(nonceBefore)
    expect(await deposit()).toBe(depositBefore)
  })
})
