import { getAddress, hashTypedData, parseEventLogs, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi, toPackedUserOperation } from 'viem/account-abstraction'
import { beforeAll, describe, expect, test } from 'vitest'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { sessionNonceKey, unsignedMerchantOperation } from '../../devnet/merchantOperation'
import { serverSessionSeconds, startServerSession } from '../../devnet/seed'
import { encodeMerchantVaultCall } from '../../shared/merchantVaultCall'
import { merchantVaultTypedData, ownerOperationSignature } from '../../shared/merchantVaultMessage'
import { toWireUserOp } from '../../shared/userOpWire'
import { freshMerchant, merchantCalls, ownerSigns, paidInvoice, randomAddress, tokenBalance, type FreshMerchant } from '../support/ownerOperations'
import { useServer } from '../support/server'

const ctx = useServer({ overrides: { SUBMIT_WAIT_MS: '1500', EXPLORER_URL: 'https://explorer.example/' } })
const usdc = (value: string) => parseUnits(value, 6)

let merchant: FreshMerchant
let withdrawalAddress: `0x${string}`
const { post, get } = merchantCalls(ctx, () => merchant)

beforeAll(async () => {
  merchant = await freshMerchant(ctx, 'Withdrawals GmbH')
  withdrawalAddress = randomAddress()
  // until the owner's route for it lands (SPEC 4.2), the address is set in the store, as the owner would
  await ctx.server.stores.withdrawalAddresses.set(merchant.studioId, withdrawalAddress)
  await paidInvoice(ctx, merchant, usdc('500'))
})

const prepare = (amount: bigint, extra: Record<string, unknown> = {}) => post('/v1/withdrawals/prepare', { ownerAddress: merchant.owner, amount: amount.toString(), ...extra })
const submit = (userOp: unknown, extra: Record<string, unknown> = {}) => post('/v1/withdrawals', { userOp, ...extra })

describe('POST /v1/withdrawals', () => {
  test("default: the owner signs the vault's typed Withdrawal and exactly the amount moves from the vault to the withdrawal address, nowhere else", async () => {
    const { deployment } = ctx.devnet
    const [vaultBefore, destinationBefore] = await Promise.all([tokenBalance(ctx, merchant.vault), tokenBalance(ctx, withdrawalAddress)])
    const prepared = await prepare(usdc('40.000001'))
    expect(prepared.status).toBe(200)
    expect(prepared.body).toMatchObject({
      success: true,
      userOp: { sender: getAddress(merchant.vault), signature: '0x', paymaster: getAddress(deployment.paymaster) },
      typedDataToSign: { primaryType: 'Withdrawal', message: { token: getAddress(deployment.token), amount: '40000001', to: withdrawalAddress, vault: getAddress(merchant.vault), operation: prepared.body.userOpHash } },
      withdrawalSummary: { amount: '40000001', amountFormatted: '40.000001', destination: withdrawalAddress, availableBefore: vaultBefore.toString(), availableAfter: (vaultBefore - usdc('40.000001')).toString() },
    })
    // the message is the one the vault checks, bound to this operation: a typed message, never a bare hash
    const { domain, types, primaryType, message } = prepared.body.typedDataToSign
    const expected = merchantVaultTypedData({
      chainId: deployment.chainId,
      vault: merchant.vault,
      call: { kind: 'Withdrawal', token: deployment.token, amount: usdc('40.000001'), to: withdrawalAddress },
      validUntil: BigInt(message.validUntil),
      operation: prepared.body.userOpHash,
    })
    expect(hashTypedData({ domain, types, primaryType, message: { ...message, amount: BigInt(message.amount), validUntil: BigInt(message.validUntil) } })).toBe(hashTypedData(expected as never))
    expect(new Date(prepared.body.expiresAt).getTime()).toBe(Number(message.validUntil) * 1000)

    const answer = await submit(await ownerSigns(prepared.body, merchant.ownerPrivateKey), { amount: '40000001', destination: withdrawalAddress })
    expect(answer).toMatchObject({ status: 200, body: { status: 'confirmed', withdrawalId: expect.any(String), userOpHash: prepared.body.userOpHash, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
    expect(answer.body.explorerUrl).toBe(`https://explorer.example/tx/${answer.body.txHash}`)
    expect(await tokenBalance(ctx, withdrawalAddress)).toBe(destinationBefore + usdc('40.000001'))
    expect(await tokenBalance(ctx, merchant.vault)).toBe(vaultBefore - usdc('40.000001'))
    // the transaction moved the token once: from the vault to the address
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: answer.body.txHash })
    const transfers = parseEventLogs({ abi: stablecoinAbi, eventName: 'Transfer', logs: receipt.logs })
    expect(transfers.map((log) => [log.args.from, log.args.to, log.args.value])).toEqual([[getAddress(merchant.vault), withdrawalAddress, usdc('40.000001')]])
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(event!.args).toMatchObject({ userOpHash: prepared.body.userOpHash, success: true, paymaster: getAddress(deployment.paymaster) })

    const listed = await get('/v1/withdrawals')
    expect(listed).toMatchObject({ status: 200, body: { success: true, data: { total: 1, limit: 20, offset: 0 } } })
    expect(listed.body.data.items[0]).toEqual({
      id: answer.body.withdrawalId,
      amount: '40000001',
      amountFormatted: '40.000001',
      destination: withdrawalAddress,
      status: 'confirmed',
      txHash: answer.body.txHash,
      userOpHash: prepared.body.userOpHash,
      explorerUrl: `https://explorer.example/tx/${answer.body.txHash}`,
      createdAt: expect.any(String),
      confirmedAt: expect.any(String),
    })

    // the same operation a second time: refused, and nothing moves
    const again = await submit(await ownerSigns(prepared.body, merchant.ownerPrivateKey))
    expect(again).toMatchObject({ status: 409, body: { error: 'ALREADY_SUBMITTED', withdrawalId: answer.body.withdrawalId, txHash: answer.body.txHash } })
    expect(await tokenBalance(ctx, withdrawalAddress)).toBe(destinationBefore + usdc('40.000001'))
  })

  test('behavior: a signature of the bare hash and the server signer\'s typed signature are refused by the vault; the owner\'s then goes through', async () => {
    const before = await tokenBalance(ctx, withdrawalAddress)
    const prepared = (await prepare(usdc('1'))).body
    const validUntil = BigInt(prepared.typedDataToSign.message.validUntil)
    const owner = privateKeyToAccount(merchant.ownerPrivateKey)
    const bareHash = ownerOperationSignature(validUntil, await owner.sign({ hash: prepared.userOpHash }))
    const personalHash = ownerOperationSignature(validUntil, await owner.signMessage({ message: { raw: prepared.userOpHash } }))
    for (const signature of [bareHash, personalHash]) {
      expect(await submit({ ...prepared.userOp, signature })).toMatchObject({ status: 400, body: { error: 'TRANSACTION_FAILED', message: expect.stringContaining('AA24') } })
    }
    const bySessionKey = await ownerSigns(prepared, ctx.devnet.seed.serverSigner.privateKey)
    expect(await submit(bySessionKey)).toMatchObject({ status: 400, body: { error: 'TRANSACTION_FAILED', message: expect.stringContaining('AA24') } })
    expect(await tokenBalance(ctx, withdrawalAddress)).toBe(before)
    expect(await submit(await ownerSigns(prepared, merchant.ownerPrivateKey))).toMatchObject({ status: 200, body: { status: 'confirmed' } })
    expect(await tokenBalance(ctx, withdrawalAddress)).toBe(before + usdc('1'))
  })

  test("behavior: an operation under the session module's nonce key, signed by the server signer, is refused unsent; the vault would refuse it too", async () => {
    const { devnet } = ctx
    const { deployment, seed } = devnet
    const { timestamp } = await devnet.clients.public.getBlock()
    await startServerSession(devnet.anvil.rpcUrl, deployment, merchant, seed.serverSigner.address, timestamp + serverSessionSeconds)
    const before = await tokenBalance(ctx, withdrawalAddress)
    const { userOp, userOpHash } = await unsignedMerchantOperation(devnet.clients.public, deployment, {
      vault: merchant.vault,
      callData: encodeMerchantVaultCall({ kind: 'Withdrawal', token: deployment.token, amount: usdc('1'), to: withdrawalAddress }),
      key: sessionNonceKey(deployment.sessionValidator!),
    })
    userOp.signature = await privateKeyToAccount(seed.serverSigner.privateKey).signMessage({ message: { raw: userOpHash } })
    expect(await submit(toWireUserOp(userOp))).toMatchObject({ status: 400, body: { error: 'OWNER_SIGNATURE_REQUIRED' } })
    // straight to the EntryPoint, the session module refuses it (it signs issue and cancel only)
    const bundler = privateKeyToAccount(merchant.ownerPrivateKey)
    await expect(
      devnet.clients.public.simulateContract({ account: bundler, address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'handleOps', args: [[toPackedUserOperation(userOp)], bundler.address] }),
    ).rejects.toThrow(/AA24/)
    expect(await tokenBalance(ctx, withdrawalAddress)).toBe(before)
  })

  test('behavior: an operation the owner signed to another destination is refused unsent (ADDRESS_MISMATCH)', async () => {
    const { devnet } = ctx
    const { deployment } = devnet
    const elsewhere = randomAddress()
    const call = { kind: 'Withdrawal' as const, token: deployment.token, amount: usdc('2'), to: elsewhere }
    const { userOp, userOpHash } = await unsignedMerchantOperation(devnet.clients.public, deployment, { vault: merchant.vault, callData: encodeMerchantVaultCall(call), key: 0n })
    const { timestamp } = await devnet.clients.public.getBlock()
    const validUntil = timestamp + 600n
    const typed = merchantVaultTypedData({ chainId: deployment.chainId, vault: merchant.vault, call, validUntil, operation: userOpHash })
    userOp.signature = ownerOperationSignature(validUntil, await privateKeyToAccount(merchant.ownerPrivateKey).signTypedData(typed as never))
    expect(await submit(toWireUserOp(userOp))).toMatchObject({ status: 400, body: { error: 'ADDRESS_MISMATCH', withdrawalAddress } })
    expect(await tokenBalance(ctx, elsewhere)).toBe(0n)
    expect(await ctx.server.stores.withdrawals.findByUserOpHash(userOpHash)).toBeNull()
  })

  test('behavior: a submission that times out answers 202; a new write waits for it, and it is reconciled from the chain once mined', async () => {
    const { test: node } = ctx.devnet
    const before = await tokenBalance(ctx, withdrawalAddress)
    const prepared = (await prepare(usdc('3'))).body
    const signed = await ownerSigns(prepared, merchant.ownerPrivateKey)
    await node.setAutomine(false)
    let pending
    try {
      pending = await submit(signed)
      expect(pending).toMatchObject({ status: 202, body: { status: 'pending', withdrawalId: expect.any(String), userOpHash: prepared.userOpHash, message: expect.any(String) } })
      // a timeout is not proof that the funds stayed: no new withdrawal until this one is settled
      expect(await prepare(usdc('1'))).toMatchObject({ status: 409, body: { error: 'OWNER_OPERATION_PENDING', userOpHash: prepared.userOpHash } })
      const listed = await get('/v1/withdrawals')
      expect(listed.body.data.items[0]).toMatchObject({ id: pending.body.withdrawalId, status: 'pending', txHash: null, confirmedAt: null })
      await node.mine({ blocks: 1 })
    } finally {
      await node.setAutomine(true)
    }
    // the next write reconciles the row from the chain before it prepares anything
    expect((await prepare(usdc('1'))).status).toBe(200)
    const row = await ctx.server.stores.withdrawals.findByUserOpHash(prepared.userOpHash)
    expect(row).toMatchObject({ status: 'confirmed', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect(await tokenBalance(ctx, withdrawalAddress)).toBe(before + usdc('3'))
  })

  test('behavior: a pending row whose operation never left and whose signature has ended is reconciled as failed, and withdrawals go on', async () => {
    const { stores } = ctx.server
    const { timestamp } = await ctx.devnet.clients.public.getBlock()
    const lost = `0x${'7c'.repeat(32)}` as const
    await stores.withdrawals.begin({
      studioId: merchant.studioId,
      chainId: ctx.devnet.deployment.chainId,
      token: ctx.devnet.deployment.token,
      amount: usdc('5'),
      destination: withdrawalAddress,
      userOpHash: lost,
      nonce: 0n,
      validUntil: Number(timestamp) - 60,
      sentAtBlock: await ctx.devnet.clients.public.getBlockNumber(),
    })
    expect((await prepare(usdc('1'))).status).toBe(200)
    expect(await stores.withdrawals.findByUserOpHash(lost)).toMatchObject({ status: 'failed', failure: 'expired', txHash: null })
  })
})

describe('POST /v1/withdrawals/prepare', () => {
  test('behavior: refusals: no withdrawal address, another destination, more than the vault holds, not the owner, malformed bodies', async () => {
    const bare = await freshMerchant(ctx, 'No Address Yet')
    const asBare = merchantCalls(ctx, () => bare)
    expect(await asBare.post('/v1/withdrawals/prepare', { ownerAddress: bare.owner, amount: '1' })).toMatchObject({ status: 400, body: { error: 'NO_WITHDRAWAL_ADDRESS' } })

    expect(await prepare(usdc('1'), { destination: randomAddress() })).toMatchObject({ status: 400, body: { error: 'ADDRESS_MISMATCH', withdrawalAddress } })
    const held = await tokenBalance(ctx, merchant.vault)
    expect(await prepare(held + 1n)).toMatchObject({ status: 400, body: { error: 'INSUFFICIENT_FUNDS', available: held.toString() } })
    expect(await post('/v1/withdrawals/prepare', { ownerAddress: privateKeyToAccount(generatePrivateKey()).address, amount: '1' })).toMatchObject({ status: 400, body: { error: 'OWNER_MISMATCH' } })
    const malformed = await Promise.all([
      prepare(0n),
      post('/v1/withdrawals/prepare', { ownerAddress: merchant.owner, amount: '1.5' }),
      post('/v1/withdrawals/prepare', { ownerAddress: merchant.owner, amount: 1 }),
      post('/v1/withdrawals/prepare', { ownerAddress: 'nope', amount: '1' }),
      post('/v1/withdrawals/prepare', { ownerAddress: merchant.owner, amount: '1', note: 'x' }),
    ])
    expect(malformed.map((answer) => [answer.status, answer.body.error])).toEqual(Array(5).fill([400, 'VALIDATION_ERROR']))
  })
})

describe('GET /v1/withdrawals', () => {
  test('behavior: limit and offset page the history newest first; out-of-range values are refused', async () => {
    const all = (await get('/v1/withdrawals', 'limit=50')).body.data
    expect(all.total).toBeGreaterThanOrEqual(3)
    const second = (await get('/v1/withdrawals', 'limit=1&offset=1')).body.data
    expect(second).toMatchObject({ total: all.total, limit: 1, offset: 1, items: [all.items[1]] })
    for (const query of ['limit=0', 'limit=51', 'offset=-1', 'limit=abc', 'page=2']) expect((await get('/v1/withdrawals', query)).status).toBe(400)
    // another studio sees none of them
    const other = await freshMerchant(ctx, 'Someone Else')
    expect((await merchantCalls(ctx, () => other).get('/v1/withdrawals')).body.data).toEqual({ items: [], total: 0, limit: 20, offset: 0 })
  })
})
