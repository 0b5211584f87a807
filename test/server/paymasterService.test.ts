import { concat, encodeAbiParameters, encodeFunctionData, parseAbiParameters, parseEventLogs, getAddress, parseAbi, zeroHash, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { entryPoint06Abi, entryPoint06Address, entryPoint07Abi, entryPoint07Address, getUserOperationHash, toPackedUserOperation } from 'viem/account-abstraction'
import { beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi, stablecoinBytecode } from '../../contracts/artifacts/Stablecoin'
import { mintTo } from '../../devnet/seed'
import { decodeVerifyingPaymasterWindow } from '../../shared/verifyingPaymaster'
import { tokenPermitAbi } from '../../shared/tokenAbi'
import { accountOf, deployFactory, hex, measuredGasFields, paymasterRpc, paymasterWire, simpleAccountFactoryV06, simpleAccountFactoryV07, signedSponsoredOp, sponsoredAtCeilings, submitter, submitterClients } from '../support/paymasterAccounts'
import { signPermit } from '../support/devnet'
import { useServer } from '../support/server'

const ctx = useServer({ overrides: { TRUSTED_PROXY_HOPS: '1' } })
const amount = 25_000_000n
const entryPointV08: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'

const erc20 = parseAbi([
  'function approve(address spender, uint256 value) returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
])
const payAbi = parseAbi(['function pay(uint256 id, uint256 deadline, uint8 v, bytes32 r, bytes32 s)'])
const simpleAccountV06Abi = parseAbi(['function executeBatch(address[] dest, bytes[] func)'])
const simpleAccountAbi = parseAbi([
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
  'function execute(address dest, uint256 value, bytes func)',
])

type Call = { to: Address; data: Hex }
let factory: Address
let factoryV06: Address
let otherToken: Address

beforeAll(async () => {
  factory = await deployFactory(ctx.devnet.clients, simpleAccountFactoryV07, ctx.devnet.deployment.entryPoint)
  factoryV06 = await deployFactory(ctx.devnet.clients, simpleAccountFactoryV06, entryPoint06Address)
  const hash = await ctx.devnet.clients.wallet.deployContract({ abi: stablecoinAbi, bytecode: stablecoinBytecode, args: [ctx.devnet.clients.wallet.account.address] })
  otherToken = (await ctx.devnet.clients.public.waitForTransactionReceipt({ hash })).contractAddress!
})

/** The two calls a smart wallet sends to pay `invoiceId` (what the widget builds). */
function paymentCalls(invoiceId: bigint, { value = amount, spender, token }: { value?: bigint; spender?: Address; token?: Address } = {}): Call[] {
  const { deployment } = ctx.devnet
  return [
    { to: token ?? deployment.token, data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [spender ?? deployment.registry, value] }) },
    { to: deployment.registry, data: encodeFunctionData({ abi: payAbi, functionName: 'pay', args: [invoiceId, 0n, 0, zeroHash, zeroHash] }) },
  ]
}

const batch = (calls: Call[]) =>
  encodeFunctionData({ abi: simpleAccountAbi, functionName: 'executeBatch', args: [calls.map((c) => c.to), calls.map(() => 0n), calls.map((c) => c.data)] })

/** A SimpleAccount v0.7 of a fresh owner, holding `funds` of the token and no ether, not deployed yet. */
async function newAccount(funds = amount, salt = 0n) {
  const owner = privateKeyToAccount(generatePrivateKey())
  const account = await accountOf(ctx.devnet.clients, factory, owner, salt)
  if (funds > 0n) await mintTo(ctx.devnet.clients, ctx.devnet.deployment, account.sender, funds)
  return { owner, ...account }
}

type Account = Awaited<ReturnType<typeof newAccount>>

async function unsignedOp(account: Account, callData: Hex) {
  const { maxFeePerGas, maxPriorityFeePerGas } = await ctx.devnet.clients.public.estimateFeesPerGas()
  return {
    sender: account.sender,
    nonce: 0n,
    factory: account.factory,
    factoryData: account.factoryData,
    callData,
    // more than any payment needs, under the service's absolute bounds: sponsored() lowers each to
    // what the service pays for this operation, as a wallet would lower it to its bundler's estimate
    callGasLimit: 900_000n,
    verificationGasLimit: 1_500_000n,
    preVerificationGas: 400_000n,
    maxFeePerGas,
    maxPriorityFeePerGas,
  }
}

type Op = Awaited<ReturnType<typeof unsignedOp>>

/** The operation as a wallet sends it to the service: quantities in hex. */
const wire = (op: Op, fields: Record<string, unknown> = {}) => paymasterWire(op, fields)

/** One JSON-RPC call to the service, from a client address of its own. */
const rpc = (method: string, params: unknown[], client?: string) => paymasterRpc(`${ctx.server.url}/v1/paymaster`, method, params, client)

const chainIdHex = () => hex(ctx.devnet.deployment.chainId)

const measuredFields = measuredGasFields

/** pm_getPaymasterData with each measured gas field lowered to the most the service pays. */
const sponsored = <T extends Record<string, unknown>>(op: T, { entryPoint = ctx.devnet.deployment.entryPoint, client, fields }: { entryPoint?: Address; client?: string; fields?: Record<string, unknown> } = {}) =>
  sponsoredAtCeilings(op, { serviceUrl: `${ctx.server.url}/v1/paymaster`, entryPoint, chainId: ctx.devnet.deployment.chainId, client, ...(fields ? { fields } : {}) })

/** Both methods refuse the operation with `code`, and hand out nothing signed. */
async function expectRefused(op: Op, code: string, { entryPoint = ctx.devnet.deployment.entryPoint, chainId = chainIdHex(), client }: { entryPoint?: Address; chainId?: Hex; client?: string } = {}) {
  for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData']) {
    const { status, body } = await rpc(method, [wire(op), entryPoint, chainId, {}], client)
    expect(status).toBe(200)
    expect(body.result).toBeUndefined()
    expect(body.error.data.code).toBe(code)
    expect(body.error.code).toBe(code === 'SPONSORSHIP_LIMIT' ? -32005 : -32003)
    expect(JSON.stringify(body)).not.toMatch(/paymasterData|paymasterAndData/)
  }
}

describe('POST /v1/paymaster', () => {
  test('behavior: a SimpleAccount v0.7 approve+pay batch gets stub data, then paymaster data, and runs through handleOps with the paymaster paying: invoice Paid, account debited exactly the amount, no ether before or after', async () => {
    const { deployment, clients } = ctx.devnet
    const invoice = await ctx.devnet.newInvoice(amount)
    const account = await newAccount()
    const op = await unsignedOp(account, batch(paymentCalls(invoice.id)))

    // a wallet asks for stub data before it has estimated gas
    const stub = await rpc('pm_getPaymasterStubData', [wire(op, { callGasLimit: '0x0', verificationGasLimit: '0x0', preVerificationGas: '0x0' }), deployment.entryPoint, chainIdHex(), {}])
    expect(stub.status).toBe(200)
    expect(stub.cors).toBe('*')
    expect(stub.body.id).toBe(stub.id)
    expect(stub.body.result).toMatchObject({ paymaster: deployment.paymaster, paymasterVerificationGasLimit: hex(60_000n), paymasterPostOpGasLimit: '0x0', isFinal: false })
    expect(stub.body.result.paymasterData).toHaveLength(2 + 2 * (64 + 65))

    const askedAt = Math.floor(Date.now() / 1000)
    const fitted = await sponsored(op, { fields: { paymasterVerificationGasLimit: hex(60_000n), paymasterPostOpGasLimit: '0x0' } })
    Object.assign(op, fitted.op)
    const sponsoredAnswer = fitted.answer
    expect(sponsoredAnswer.body.error).toBeUndefined()
    expect(Object.keys(sponsoredAnswer.body.result).sort()).toEqual(['paymaster', 'paymasterData', 'paymasterPostOpGasLimit', 'paymasterVerificationGasLimit'])
    const { validUntil, validAfter } = decodeVerifyingPaymasterWindow(sponsoredAnswer.body.result.paymasterData)!
    // the vault flow's window: SPONSORSHIP_WINDOW_SECONDS (900) from when it was signed
    const answeredAt = Math.floor(Date.now() / 1000)
    expect(validAfter).toBe(0)
    expect(validUntil).toBeGreaterThanOrEqual(askedAt + 900)
    expect(validUntil).toBeLessThanOrEqual(answeredAt + 900)

    const { userOp } = await signedSponsoredOp(op, sponsoredAnswer.body.result, account.owner, { chainId: deployment.chainId, entryPoint: entryPoint07Address })

    const before = { tokens: await ctx.devnet.balanceOf(account.sender), ether: await clients.public.getBalance({ address: account.sender }) }
    const depositBefore = await clients.public.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'balanceOf', args: [deployment.paymaster] })
    const submit = submitterClients(ctx.devnet.anvil.rpcUrl, deployment.chainId)
    const receipt = await submit.public.waitForTransactionReceipt({
      hash: await submit.wallet.writeContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'handleOps', args: [[toPackedUserOperation(userOp)], submitter.address] }),
    })
    expect(receipt.status).toBe('success')

    const paid = await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })
    expect(paid.status).toBe(2)
    expect(paid.payer).toBe(account.sender)
    expect(before).toEqual({ tokens: amount, ether: 0n })
    expect(await ctx.devnet.balanceOf(account.sender)).toBe(0n)
    expect(await clients.public.getBalance({ address: account.sender })).toBe(0n)
    const depositAfter = await clients.public.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'balanceOf', args: [deployment.paymaster] })
    expect(depositAfter).toBeLessThan(depositBefore)
  })

  test('behavior: a SimpleAccount v0.6 batch on EntryPoint v0.6 gets paymasterAndData for the v0.6 paymaster and runs through its handleOps: invoice Paid, debited exactly the amount, no ether', async () => {
    const { deployment, clients } = ctx.devnet
    expect(deployment.entryPointV06).toBe(entryPoint06Address)
    const invoice = await ctx.devnet.newInvoice(amount)
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await accountOf(clients, factoryV06, owner)
    await mintTo(clients, deployment, account.sender, amount)
    const calls = paymentCalls(invoice.id)
    const { maxFeePerGas, maxPriorityFeePerGas } = await clients.public.estimateFeesPerGas()
    const op = {
      sender: account.sender,
      nonce: 0n,
      initCode: concat([account.factory, account.factoryData]),
      callData: encodeFunctionData({ abi: simpleAccountV06Abi, functionName: 'executeBatch', args: [calls.map((c) => c.to), calls.map((c) => c.data)] }),
      callGasLimit: 900_000n,
      verificationGasLimit: 1_500_000n,
      preVerificationGas: 400_000n,
      maxFeePerGas,
      maxPriorityFeePerGas,
    }
    const params = (fields: Record<string, unknown> = {}) => [{ ...wire(op as never), ...fields }, entryPoint06Address, chainIdHex(), {}]

    const stub = await rpc('pm_getPaymasterStubData', params({ callGasLimit: '0x0' }))
    expect(Object.keys(stub.body.result).sort()).toEqual(['isFinal', 'paymasterAndData'])
    expect(stub.body.result.isFinal).toBe(false)
    expect(stub.body.result.paymasterAndData.slice(0, 42).toLowerCase()).toBe(deployment.paymasterV06!.toLowerCase())
    const fitted = await sponsored(op, { entryPoint: entryPoint06Address })
    Object.assign(op, fitted.op)
    expect(Object.keys(fitted.answer.body.result)).toEqual(['paymasterAndData'])
    const paymasterAndData = fitted.answer.body.result.paymasterAndData as Hex
    expect(paymasterAndData).toHaveLength(2 + 2 * (20 + 64 + 65))
    expect(getAddress(paymasterAndData.slice(0, 42))).toBe(deployment.paymasterV06)

    const userOp = { ...op, paymasterAndData, signature: '0x' as Hex }
    const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: entryPoint06Address, entryPointVersion: '0.6' })
    userOp.signature = await owner.signMessage({ message: { raw: userOpHash } })
    const submit = submitterClients(ctx.devnet.anvil.rpcUrl, deployment.chainId)
    const receipt = await submit.public.waitForTransactionReceipt({
      hash: await submit.wallet.writeContract({ address: entryPoint06Address, abi: entryPoint06Abi, functionName: 'handleOps', args: [[userOp], submitter.address] }),
    })
    expect(receipt.status).toBe('success')
    const paid = await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })
    expect(paid.status).toBe(2)
    expect(paid.payer).toBe(account.sender)
    expect(await ctx.devnet.balanceOf(account.sender)).toBe(0n)
    expect(await clients.public.getBalance({ address: account.sender })).toBe(0n)
  })

  describe('refusals, with nothing signed', () => {
    test('behavior: asked for nonces 0 to 11 of one account, the service signs only the one the EntryPoint expects now; every later one is NONCE_NOT_CURRENT, so one invoice never has a series of live sponsorships from one sender', async () => {
      const { deployment } = ctx.devnet
      const invoice = await ctx.devnet.newInvoice(amount)
      const account = await newAccount()
      const op = await unsignedOp(account, batch(paymentCalls(invoice.id)))
      const { op: fitted, answer: signed } = await sponsored(op)
      expect(signed.body.result.paymasterData).toMatch(/^0x/)
      Object.assign(op, fitted)
      for (let nonce = 1n; nonce < 12n; nonce++) await expectRefused({ ...op, nonce }, 'NONCE_NOT_CURRENT')
      const { body } = await rpc('pm_getPaymasterData', [wire({ ...op, nonce: 5n }), deployment.entryPoint, chainIdHex(), {}])
      expect(body.error.data).toMatchObject({ code: 'NONCE_NOT_CURRENT', expected: '0x0' })
      // another key's first sequence can run now, so it is signed, and counted as a sponsorship of its own
      const { answer: keyed } = await sponsored({ ...op, nonce: 1n << 64n }, { client: '198.51.100.77' })
      expect(keyed.body.result.paymasterData).toMatch(/^0x/)
    })

    test("behavior: an invoice whose merchant is not a studio of this server (anyone may issue one on the registry) is MERCHANT_NOT_REGISTERED, and the vault flow's /permit refuses it with 409", async () => {
      const { deployment } = ctx.devnet
      const self = submitterClients(ctx.devnet.anvil.rpcUrl, deployment.chainId)
      const { timestamp } = await self.public.getBlock()
      const hash = await self.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'issue', args: [deployment.token, 1n, timestamp + 86_400n, zeroHash, ''] })
      const [issued] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceIssued', logs: (await self.public.waitForTransactionReceipt({ hash })).logs })
      const invoiceId = issued!.args.id
      await expectRefused(await unsignedOp(await newAccount(1n), batch(paymentCalls(invoiceId, { value: 1n }))), 'MERCHANT_NOT_REGISTERED')
      const payer = await ctx.devnet.newPayer(1n)
      const permit = await fetch(`${ctx.server.url}/v1/pay/${invoiceId}/permit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payerAddress: payer.vault, ownerAddress: payer.owner }),
      })
      expect(permit.status).toBe(409)
      expect(await permit.json()).toMatchObject({ error: 'MERCHANT_NOT_REGISTERED' })
    })

    test('behavior: a third call in the batch is EXTRA_CALL', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      const account = await newAccount()
      const extra = { to: ctx.devnet.deployment.token, data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [submitter.address, 1n] }) }
      await expectRefused(await unsignedOp(account, batch([...paymentCalls(invoice.id), extra])), 'EXTRA_CALL')
    })

    test('behavior: an approval one unit larger than the amount is AMOUNT_MISMATCH', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      await expectRefused(await unsignedOp(await newAccount(), batch(paymentCalls(invoice.id, { value: amount + 1n }))), 'AMOUNT_MISMATCH')
    })

    test('behavior: an approval to another spender is SPENDER_MISMATCH', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      await expectRefused(await unsignedOp(await newAccount(), batch(paymentCalls(invoice.id, { spender: submitter.address }))), 'SPENDER_MISMATCH')
    })

    test('behavior: an approval of another token is TOKEN_MISMATCH', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      await expectRefused(await unsignedOp(await newAccount(), batch(paymentCalls(invoice.id, { token: otherToken }))), 'TOKEN_MISMATCH')
    })

    test('behavior: a Paid invoice and a Canceled invoice are INVALID_STATUS', async () => {
      const paid = await ctx.devnet.newInvoice(amount)
      // paid by someone else first, straight from an account
      const { deployment } = ctx.devnet
      const direct = submitterClients(ctx.devnet.anvil.rpcUrl, deployment.chainId)
      await mintTo(ctx.devnet.clients, deployment, submitter.address, amount)
      await direct.public.waitForTransactionReceipt({ hash: await direct.wallet.writeContract({ address: deployment.token, abi: erc20, functionName: 'approve', args: [deployment.registry, amount] }) })
      await direct.public.waitForTransactionReceipt({ hash: await direct.wallet.writeContract({ address: deployment.registry, abi: payAbi, functionName: 'pay', args: [paid.id, 0n, 0, zeroHash, zeroHash] }) })
      await expectRefused(await unsignedOp(await newAccount(), batch(paymentCalls(paid.id))), 'INVALID_STATUS')

      const canceled = await ctx.devnet.newInvoice(amount)
      await ctx.devnet.cancelInvoice(canceled.id)
      await expectRefused(await unsignedOp(await newAccount(), batch(paymentCalls(canceled.id))), 'INVALID_STATUS')
    })

    test('behavior: callData of an account kind the service does not read (a single execute) is UNKNOWN_ACCOUNT_KIND', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      const [, pay] = paymentCalls(invoice.id)
      const single = encodeFunctionData({ abi: simpleAccountAbi, functionName: 'execute', args: [pay!.to, 0n, pay!.data] })
      await expectRefused(await unsignedOp(await newAccount(), single), 'UNKNOWN_ACCOUNT_KIND')
    })

    test('behavior: an EntryPoint the service does not serve (v0.8) is UNSUPPORTED_ENTRY_POINT, another chain UNSUPPORTED_CHAIN', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      const op = await unsignedOp(await newAccount(), batch(paymentCalls(invoice.id)))
      await expectRefused(op, 'UNSUPPORTED_ENTRY_POINT', { entryPoint: entryPointV08 })
      await expectRefused(op, 'UNSUPPORTED_CHAIN', { chainId: hex(8453) })
    })

    test('behavior: an account that lacks the amount is INSUFFICIENT_BALANCE', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      await expectRefused(await unsignedOp(await newAccount(amount - 1n), batch(paymentCalls(invoice.id))), 'INSUFFICIENT_BALANCE')
    })

    test('behavior: past the per-invoice sponsorship limit (3 live), a fourth account is refused with -32005 SPONSORSHIP_LIMIT, and so is a vault\'s /prepare: one count, one metric', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      const { deployment } = ctx.devnet
      for (let i = 0; i < 3; i++) {
        const op = await unsignedOp(await newAccount(amount, BigInt(i)), batch(paymentCalls(invoice.id)))
        const { answer } = await sponsored(op, { client: `198.51.100.${i + 1}` })
        expect(answer.body.result.paymasterData).toMatch(/^0x/)
      }
      const fourth = await unsignedOp(await newAccount(amount, 9n), batch(paymentCalls(invoice.id)))
      await expectRefused(fourth, 'SPONSORSHIP_LIMIT', { client: '198.51.100.4' })
      const { body } = await rpc('pm_getPaymasterData', [wire(fourth), deployment.entryPoint, chainIdHex(), {}], '198.51.100.4')
      expect(body.error.data).toMatchObject({ code: 'SPONSORSHIP_LIMIT', limit: 'perInvoice', max: 3 })
      const metrics = await (await fetch(`${ctx.server.url}/metrics`)).text()
      expect(metrics).toContain('svc_checkout_prepares_total{outcome="SPONSORSHIP_LIMIT"} 2\n')

      // one table for both routes: a vault's /prepare for the same invoice finds it full too
      const payer = await ctx.devnet.newPayer(amount)
      const deadline = BigInt(Math.floor(Date.now() / 1000) + 3_600)
      const signed = await signPermit(ctx.devnet.clients.public, deployment, { ownerPrivateKey: payer.ownerPrivateKey, vault: payer.vault, value: amount, deadline })
      const prepare = await fetch(`${ctx.server.url}/v1/pay/${invoice.id}/prepare`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.5' },
        body: JSON.stringify({ payerAddress: payer.vault, ownerAddress: payer.owner, permit: { deadline: deadline.toString(), v: signed.v, r: signed.r, s: signed.s } }),
      })
      expect(prepare.status).toBe(429)
      expect(await prepare.json()).toMatchObject({ error: 'SPONSORSHIP_LIMIT', limit: 'perInvoice', max: 3 })
    })
  })

  describe('account kinds', () => {
    const erc7579Abi = parseAbi(['function execute(bytes32 mode, bytes executionCalldata)'])
    const coinbaseAbi = parseAbi(['struct Call { address target; uint256 value; bytes data; }', 'function executeBatch(Call[] calls)'])
    const executions = (calls: Call[]) =>
      encodeAbiParameters(parseAbiParameters('(address target, uint256 value, bytes callData)[]'), [calls.map((c) => ({ target: c.to, value: 0n, callData: c.data }))])
    const atomicBatch: Hex = `0x0100${'00'.repeat(30)}`
    const tryBatch: Hex = `0x0101${'00'.repeat(30)}`

    /** A sender with the amount and no code: an account of a kind we hold no implementation of. */
    async function foreignOp(callData: Hex) {
      const sender = privateKeyToAccount(generatePrivateKey()).address
      await mintTo(ctx.devnet.clients, ctx.devnet.deployment, sender, amount)
      const { factory: _f, factoryData: _d, ...op } = await unsignedOp({ ...(await newAccount(0n)), sender }, callData)
      return op as Op
    }

    test('behavior: an ERC-7579 execute in atomic batch mode and a Coinbase Smart Wallet executeBatch decode as the payment, and are still refused (EXECUTION_DOES_NOT_PAY) from a sender whose code, run, pays nothing: here none', async () => {
      for (const encode of [
        (calls: Call[]) => encodeFunctionData({ abi: erc7579Abi, functionName: 'execute', args: [atomicBatch, executions(calls)] }),
        (calls: Call[]) => encodeFunctionData({ abi: coinbaseAbi, functionName: 'executeBatch', args: [calls.map((c) => ({ target: c.to, value: 0n, data: c.data }))] }),
      ]) {
        const invoice = await ctx.devnet.newInvoice(amount)
        // every check on the callData passed (an unknown kind, a wrong call, would say so): the account's code is what fails
        await expectRefused(await foreignOp(encode(paymentCalls(invoice.id))), 'EXECUTION_DOES_NOT_PAY')
      }
    })

    test('behavior: an ERC-7579 batch in "try" mode (failures tolerated) is UNKNOWN_ACCOUNT_KIND; a Coinbase batch with a third call is EXTRA_CALL', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      await expectRefused(await foreignOp(encodeFunctionData({ abi: erc7579Abi, functionName: 'execute', args: [tryBatch, executions(paymentCalls(invoice.id))] })), 'UNKNOWN_ACCOUNT_KIND')
      const calls = [...paymentCalls(invoice.id), paymentCalls(invoice.id)[1]!]
      await expectRefused(await foreignOp(encodeFunctionData({ abi: coinbaseAbi, functionName: 'executeBatch', args: [calls.map((c) => ({ target: c.to, value: 0n, data: c.data }))] })), 'EXTRA_CALL')
    })

    test("behavior: a permit instead of the approval must be the sender's and one the token accepts: another owner's, or one the token refuses, is PERMIT_INVALID", async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      const account = await newAccount()
      const deadline = BigInt(Math.floor(Date.now() / 1000) + 3_600)
      const permit = (owner: Address) =>
        encodeFunctionData({ abi: tokenPermitAbi, functionName: 'permit', args: [owner, ctx.devnet.deployment.registry, amount, deadline, 27, `0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`] })
      const [, pay] = paymentCalls(invoice.id)
      const withPermit = (owner: Address) => batch([{ to: ctx.devnet.deployment.token, data: permit(owner) }, pay!])
      await expectRefused(await unsignedOp(account, withPermit(submitter.address)), 'PERMIT_INVALID')
      // the sender's, but no signature of it: the token refuses it, and the batch would revert at the paymaster's cost
      await expectRefused(await unsignedOp(account, withPermit(account.sender)), 'PERMIT_INVALID')
    })
  })

  describe('the request', () => {
    test('behavior: a tip above twice what the chain asks is FEE_TOO_HIGH; pm_getPaymasterData without gas fields is GAS_FIELDS_MISSING', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      const op = await unsignedOp(await newAccount(), batch(paymentCalls(invoice.id)))
      await expectRefused({ ...op, maxPriorityFeePerGas: 50_000_000_000n, maxFeePerGas: 60_000_000_000n }, 'FEE_TOO_HIGH')
      const { body } = await rpc('pm_getPaymasterData', [wire({ ...op, callGasLimit: 0n }), ctx.devnet.deployment.entryPoint, chainIdHex(), {}])
      expect(body.error.data.code).toBe('GAS_FIELDS_MISSING')
    })

    test('behavior: each gas field is held to what the operation measures in simulation with the stated margin: above it, GAS_LIMIT_TOO_HIGH names the field and its max; at every max the operation is signed, and one unit over any is refused', async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      const op = await unsignedOp(await newAccount(), batch(paymentCalls(invoice.id)))
      // far more than a payment needs, yet under the absolute bounds: this was signed before
      const { body } = await rpc('pm_getPaymasterData', [wire(op), ctx.devnet.deployment.entryPoint, chainIdHex(), {}])
      expect(body.error.data).toMatchObject({ code: 'GAS_LIMIT_TOO_HIGH', field: expect.stringMatching(/^(verificationGasLimit|callGasLimit|preVerificationGas)$/), max: expect.stringMatching(/^\d+$/) })
      const { op: atCeilings, answer } = await sponsored(op)
      expect(answer.body.result.paymasterData).toMatch(/^0x/)
      for (const field of measuredFields) {
        expect(atCeilings[field]).toBeLessThan(op[field])
        const over = await rpc('pm_getPaymasterData', [wire({ ...atCeilings, [field]: atCeilings[field] + 1_000n }), ctx.devnet.deployment.entryPoint, chainIdHex(), {}])
        expect(over.body.error.data).toMatchObject({ code: 'GAS_LIMIT_TOO_HIGH', field })
      }
    })

    test("behavior: a self-bundler that takes every gas field at its max and sends the operation itself is paid for at most a quarter more gas than its bundle transaction used, the payment's own refunds included (docs/api.md states the margin)", async () => {
      const { deployment, clients } = ctx.devnet
      const invoice = await ctx.devnet.newInvoice(amount)
      const account = await newAccount()
      const { op, answer } = await sponsored(await unsignedOp(account, batch(paymentCalls(invoice.id))), { fields: { paymasterVerificationGasLimit: hex(60_000n), paymasterPostOpGasLimit: '0x0' } })
      const { userOp } = await signedSponsoredOp(op, answer.body.result, account.owner, { chainId: deployment.chainId, entryPoint: entryPoint07Address })
      const bundler = submitterClients(ctx.devnet.anvil.rpcUrl, deployment.chainId)
      const receipt = await bundler.public.waitForTransactionReceipt({
        hash: await bundler.wallet.writeContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'handleOps', args: [[toPackedUserOperation(userOp)], submitter.address] }),
      })
      const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
      expect(event!.args.success).toBe(true)
      expect((await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })).status).toBe(2)
      // what the paymaster's deposit paid for, in gas, against what the bundler's transaction burned
      const charged = event!.args.actualGasUsed
      expect(charged).toBeLessThanOrEqual((receipt.gasUsed * 125n) / 100n)
    })

    test("behavior: a wallet's placeholder signature that is no signature at all (s above half the curve's order, which SimpleAccount's ECDSA check reverts on) is measured with a well-formed 65-byte placeholder instead, and signed", async () => {
      const invoice = await ctx.devnet.newInvoice(amount)
      const op = { ...(await unsignedOp(await newAccount(), batch(paymentCalls(invoice.id)))), signature: `0x${'ff'.repeat(64)}1c` as Hex }
      const { answer } = await sponsored(op)
      expect(answer.body.error).toBeUndefined()
      expect(answer.body.result.paymasterData).toMatch(/^0x/)
    })

    test('behavior: a body over 64 KiB is a 413 before anything is read', async () => {
      const response = await fetch(`${ctx.server.url}/v1/paymaster`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'pm_getPaymasterData', params: [{ callData: `0x${'00'.repeat(40_000)}` }] }),
      })
      expect(response.status).toBe(413)
      expect(await response.json()).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' })
    })

    test('behavior: unknown methods and malformed params are JSON-RPC errors; a body that is not JSON-RPC is a 400', async () => {
      expect((await rpc('eth_chainId', [])).body.error).toMatchObject({ code: -32601, data: { code: 'METHOD_NOT_FOUND' } })
      expect((await rpc('pm_getPaymasterData', [{ sender: 'nope' }, ctx.devnet.deployment.entryPoint, chainIdHex()])).body.error).toMatchObject({ code: -32602, data: { code: 'VALIDATION_ERROR' } })
      const response = await fetch(`${ctx.server.url}/v1/paymaster`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'pm_getPaymasterData' }) })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: 'VALIDATION_ERROR' })
    })
  })
})
