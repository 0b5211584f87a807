import { encodeErrorResult, encodeFunctionData, erc20Abi, hashTypedData, keccak256, parseEventLogs, parseUnits, toHex, type Address, type Hex } from 'viem'
import { entryPoint07Abi, getUserOperationHash, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { ownedVerifyingPaymasterAbi } from '../../contracts/artifacts/OwnedVerifyingPaymaster'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { payerVaultFactoryAbi } from '../../contracts/artifacts/PayerVaultFactory'
import { paymentTypedData, type PaymentMessage } from '../../shared/paymentMessage'
import { permitTypedData } from '../../shared/permit'
import type { Funding } from '../../shared/fundedPayCall'
import { payUserOperation } from '../../shared/payUserOperation'
import { signVerifyingPaymasterData, verifyingPaymasterHash } from '../../shared/verifyingPaymaster'
import { devnetClients, devnetRoles, mined } from '../../devnet/deploy'
import { demoPayerFunds } from '../../devnet/seed'
import { signFundingPermit, signPermit, useDevnet } from '../support/devnet'

const devnet = useDevnet()
const status = { Issued: 1, Paid: 2, Canceled: 3 } as const

const gas = {
  callGasLimit: 300_000n,
  verificationGasLimit: 500_000n,
  preVerificationGas: 60_000n,
  paymasterVerificationGasLimit: 100_000n,
  paymasterPostOpGasLimit: 0n,
  maxFeePerGas: parseUnits('5', 9),
  maxPriorityFeePerGas: parseUnits('1', 9),
}

async function now() {
  return (await devnet.clients.public.getBlock()).timestamp
}

const { balanceOf } = devnet

function readInvoice(id: bigint) {
  return devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
}

type Payer = { vault: Address; owner: Address; ownerPrivateKey: Hex }

/** How the owner signs the operation: the typed Payment message (what the vault takes), optionally
 * with some of its fields changed, or the bare userOpHash with personal_sign (what it took before). */
type Signing = { kind: 'typed'; changed?: Partial<PaymentMessage> } | { kind: 'personal' }

/** Everything a payer and the server do before submission: permit, operation, sponsorship, signature.
 * `pays` changes what the call says the invoice holds (merchant, amount), `callData` replaces the call. */
async function signedPayOperation(
  payer: Payer,
  invoice: { id: bigint; amount: bigint; invoiceNumber: bigint },
  {
    deadline,
    permit,
    pays = {},
    funding,
    callData,
    signing = { kind: 'typed' },
  }: {
    deadline?: bigint
    permit?: Awaited<ReturnType<typeof signPermit>>
    pays?: { merchant?: Address; amount?: bigint; invoiceNumber?: bigint; feeBps?: number }
    funding?: Funding
    callData?: Hex
    signing?: Signing
  } = {},
) {
  const { deployment, clients, seed } = devnet
  const merchant = pays.merchant ?? seed.merchant.vault
  const amount = pays.amount ?? invoice.amount
  const invoiceNumber = pays.invoiceNumber ?? invoice.invoiceNumber
  const feeBps = pays.feeBps ?? (await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'feeBpsFor', args: [merchant] }))
  const permitDeadline = deadline ?? (await now()) + 3600n
  const signedPermit = permit ?? (await signPermit(clients.public, deployment, { ...payer, value: amount, deadline: permitDeadline }))
  const code = await clients.public.getCode({ address: payer.vault })
  const nonce = await clients.public.readContract({
    address: deployment.entryPoint,
    abi: entryPoint07Abi,
    functionName: 'getNonce',
    args: [payer.vault, 0n],
  })
  const built = payUserOperation({
    deployment,
    invoiceId: invoice.id,
    invoiceNumber,
    merchant,
    amount,
    feeBps,
    vault: payer.vault,
    owner: payer.owner,
    vaultDeployed: !!code && code !== '0x',
    nonce,
    permit: signedPermit,
    funding,
    gas,
    paymasterData: '0x',
    signature: '0x',
  })
  const unsponsored = callData ? { ...built, callData } : built
  const window = { chainId: deployment.chainId, validUntil: Number(signedPermit.deadline), validAfter: 0 }
  const paymasterData = await signVerifyingPaymasterData(
    devnetRoles.paymasterSigner,
    { ...unsponsored, paymaster: deployment.paymaster, paymasterVerificationGasLimit: gas.paymasterVerificationGasLimit, paymasterPostOpGasLimit: 0n },
    window,
  )
  const userOperation: UserOperation<'0.7'> = { ...unsponsored, paymasterData }
  const userOpHash = getUserOperationHash({
    chainId: deployment.chainId,
    entryPointAddress: deployment.entryPoint,
    entryPointVersion: '0.7',
    userOperation,
  })
  const message: PaymentMessage = {
    registry: deployment.registry,
    invoice: invoice.id,
    invoiceNumber,
    merchant,
    token: deployment.token,
    amount,
    feeBps,
    fromWallet: funding?.amount ?? 0n,
    vault: payer.vault,
    validUntil: signedPermit.deadline,
    operation: userOpHash,
  }
  const signature = await signOperation(payer.ownerPrivateKey, userOpHash, message, signing)
  return { userOperation: { ...userOperation, signature }, userOpHash, permit: signedPermit, message }
}

function signOperation(ownerPrivateKey: Hex, userOpHash: Hex, message: PaymentMessage, signing: Signing) {
  const owner = privateKeyToAccount(ownerPrivateKey)
  if (signing.kind === 'personal') return owner.signMessage({ message: { raw: userOpHash } })
  return owner.signTypedData(paymentTypedData(devnet.deployment.chainId, { ...message, ...signing.changed }))
}

async function handleOps(userOperation: UserOperation<'0.7'>) {
  const bundler = devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId, devnetRoles.bundler)
  return bundler.wallet.writeContract({
    address: devnet.deployment.entryPoint,
    abi: entryPoint07Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(userOperation)], devnetRoles.bundler.address],
  })
}

const freshPayer = (funds = demoPayerFunds) => devnet.newPayer(funds)
const freshInvoice = (amount: bigint) => devnet.newInvoice(amount)

describe('sponsored payment through EntryPoint v0.7', () => {
  test('behavior: a counterfactual payer vault pays an invoice in one sponsored UserOperation', async () => {
    const { deployment, clients, seed } = devnet
    const payer = seed.payer
    const invoice = seed.invoices[1]!
    expect(await clients.public.getCode({ address: payer.vault })).toBeUndefined()
    const merchantBefore = await balanceOf(seed.merchant.vault)
    const treasuryBefore = await balanceOf(devnetRoles.treasury.address)
    const depositBefore = await clients.public.readContract({ address: deployment.paymaster, abi: ownedVerifyingPaymasterAbi, functionName: 'getDeposit' })

    const { userOperation, userOpHash } = await signedPayOperation(payer, invoice)
    const receipt = await mined(clients.public, await handleOps(userOperation))

    const fee = (invoice.amount * 100n) / 10_000n
    expect(invoice.amount).toBe(248_000_000n)
    expect(fee).toBe(2_480_000n)
    expect(await balanceOf(payer.vault)).toBe(demoPayerFunds - invoice.amount)
    expect(await balanceOf(seed.merchant.vault)).toBe(merchantBefore + invoice.amount - fee)
    expect(await balanceOf(devnetRoles.treasury.address)).toBe(treasuryBefore + fee)
    expect((await clients.public.getCode({ address: payer.vault }))?.length).toBeGreaterThan(2)

    const stored = await readInvoice(invoice.id)
    expect(stored.status).toBe(status.Paid)
    expect(stored.payer).toBe(payer.vault)

    const [paid] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoicePaid', logs: receipt.logs })
    expect(paid?.args).toEqual({ id: invoice.id, payer: payer.vault, merchant: seed.merchant.vault, gross: invoice.amount, fee, net: invoice.amount - fee, feeBps: 100 })
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(event?.args.userOpHash).toBe(userOpHash)
    expect(event?.args.success).toBe(true)
    expect(event?.args.paymaster).toBe(deployment.paymaster)
    // the paymaster paid for the gas out of its EntryPoint deposit; the payer spent no ETH
    const depositAfter = await clients.public.readContract({ address: deployment.paymaster, abi: ownedVerifyingPaymasterAbi, functionName: 'getDeposit' })
    expect(depositBefore - depositAfter).toBe(event?.args.actualGasCost)
    expect(await clients.public.getBalance({ address: payer.vault })).toBe(0n)
  })

  test('behavior: viem getUserOperationHash equals EntryPoint.getUserOpHash', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('12.34', 6))
    const { userOperation, userOpHash } = await signedPayOperation(payer, invoice)
    const onChain = await devnet.clients.public.readContract({
      address: devnet.deployment.entryPoint,
      abi: entryPoint07Abi,
      functionName: 'getUserOpHash',
      args: [toPackedUserOperation(userOperation)],
    })
    expect(onChain).toBe(userOpHash)
  })

  test('behavior: the off-chain paymaster hash equals VerifyingPaymaster.getHash', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('1', 6))
    const { userOperation } = await signedPayOperation(payer, invoice)
    const window = { validUntil: 1_900_000_000, validAfter: 5 }
    const sponsorable = { ...userOperation, paymaster: devnet.deployment.paymaster, paymasterVerificationGasLimit: gas.paymasterVerificationGasLimit, paymasterPostOpGasLimit: 0n }
    const onChain = await devnet.clients.public.readContract({
      address: devnet.deployment.paymaster,
      abi: ownedVerifyingPaymasterAbi,
      functionName: 'getHash',
      args: [toPackedUserOperation(userOperation), window.validUntil, window.validAfter],
    })
    expect(verifyingPaymasterHash(sponsorable, { ...window, chainId: devnet.deployment.chainId })).toBe(onChain)
  })

  test('behavior: the vault\'s permit cannot be submitted outside its payment, so a front-runner copying it blocks nothing', async () => {
    // before, a front-runner could submit the vault's permit to the token first and the payment had
    // to take the allowance that left; now the vault accepts that signature only while it runs the
    // payment itself, so the copy is refused and the payment goes through as signed
    const { clients, deployment, seed } = devnet
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('99.99', 6))
    const merchantBefore = await balanceOf(seed.merchant.vault)
    const { userOperation, permit } = await signedPayOperation(payer, invoice)

    // the vault must exist for ERC-1271, so the front-runner deploys it too (anyone can)
    const frontRunner = devnetClients(devnet.anvil.rpcUrl, deployment.chainId, privateKeyToAccount(generatePrivateKey()))
    await devnet.test.setBalance({ address: frontRunner.wallet.account.address, value: parseUnits('1', 18) })
    await mined(clients.public, await frontRunner.wallet.sendTransaction({ to: userOperation.factory!, data: userOperation.factoryData! }))
    await expect(
      frontRunner.wallet.writeContract({
        address: deployment.token,
        abi: stablecoinAbi,
        functionName: 'permit',
        args: [payer.vault, deployment.registry, invoice.amount, permit.deadline, permit.v, permit.r, permit.s],
      }),
    ).rejects.toThrow()
    expect(await clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'allowance', args: [payer.vault, deployment.registry] })).toBe(0n)

    // the operation was built for an undeployed vault: rebuild it as it is now, with the same permit
    const { userOperation: current } = await signedPayOperation(payer, invoice, { permit })
    await mined(clients.public, await handleOps(current))
    expect((await readInvoice(invoice.id)).status).toBe(status.Paid)
    expect(await balanceOf(seed.merchant.vault)).toBe(merchantBefore + invoice.amount - invoice.amount / 100n)
  })

  test('behavior: an expired permit cannot be carried by a sponsor whose window outlasts it: the vault\'s own window ends with the permit', async () => {
    // before, the vault set no window and this operation reached the registry, which reverted it
    // inside; now the signed message's validUntil is the permit's deadline, so it never executes
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('10', 6))
    const past = (await now()) - 1n
    const permit = await signPermit(devnet.clients.public, devnet.deployment, { ...payer, value: invoice.amount, deadline: past })
    // sponsor generously (window not tied to the stale permit) to reach the vault's own check
    const { userOperation, message } = await signedPayOperation(payer, invoice, { permit: { ...permit, deadline: past } })
    const patched = await resignWithWindow(userOperation, payer.ownerPrivateKey, (await now()) + 3600n, message)
    await expect(handleOps(patched)).rejects.toThrow(/AA22 expired or not due/)
    expect((await readInvoice(invoice.id)).status).toBe(status.Issued)
    expect(await balanceOf(payer.vault)).toBe(demoPayerFunds)
  })

  test('behavior: a second payment of a Paid invoice fails and debits nobody', async () => {
    const invoice = await freshInvoice(parseUnits('5', 6))
    const first = await freshPayer()
    const second = await freshPayer()
    await mined(devnet.clients.public, await handleOps((await signedPayOperation(first, invoice)).userOperation))
    const receipt = await mined(devnet.clients.public, await handleOps((await signedPayOperation(second, invoice)).userOperation))
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(event?.args.success).toBe(false)
    expect(await balanceOf(second.vault)).toBe(demoPayerFunds)
    expect((await readInvoice(invoice.id)).payer).toBe(first.vault)
  })

  test('behavior: a payer without enough funds cannot pay and the invoice stays Issued', async () => {
    const poor = await freshPayer(parseUnits('1', 6))
    const invoice = await freshInvoice(parseUnits('2', 6))
    const receipt = await mined(devnet.clients.public, await handleOps((await signedPayOperation(poor, invoice)).userOperation))
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(event?.args.success).toBe(false)
    expect((await readInvoice(invoice.id)).status).toBe(status.Issued)
    expect(await balanceOf(poor.vault)).toBe(parseUnits('1', 6))
  })
})

/** What moves when an operation runs: the payer's vault and account, and the merchant's vault. */
async function holdings(payer: Payer) {
  return { vault: await balanceOf(payer.vault), account: await balanceOf(payer.owner), merchant: await balanceOf(devnet.seed.merchant.vault) }
}

function userOperationEvent(receipt: Awaited<ReturnType<typeof mined>>) {
  const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
  return event!.args
}

/** The token's permit digest for `owner` (a vault) to the registry, at its current nonce. */
async function permitDigest(owner: Address, value: bigint, deadline: bigint) {
  const { clients, deployment } = devnet
  const nonce = await clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'nonces', args: [owner] })
  return hashTypedData(
    permitTypedData({ name: 'USD Coin', version: '2', chainId: deployment.chainId, verifyingContract: deployment.token }, { owner, spender: deployment.registry, value, nonce, deadline }),
  )
}

const erc1271Magic = '0x1626ba7e'

describe('the payment is exactly what the owner signed', () => {
  test('behavior: an operation signed for invoice A whose call pays invoice B fails validation (AA24) and moves nothing', async () => {
    const payer = await freshPayer()
    const a = await freshInvoice(parseUnits('7', 6))
    const b = await freshInvoice(parseUnits('7', 6))
    const before = await holdings(payer)
    const { userOperation } = await signedPayOperation(payer, b, { signing: { kind: 'typed', changed: { invoice: a.id } } })
    await expect(handleOps(userOperation)).rejects.toThrow(/AA24 signature error/)
    expect(await holdings(payer)).toEqual(before)
    expect((await readInvoice(a.id)).status).toBe(status.Issued)
    expect((await readInvoice(b.id)).status).toBe(status.Issued)
  })

  test('behavior: an amount, merchant or invoice number other than the invoice\'s, signed as such by the owner, reverts with InvoiceDiffers and moves nothing', async () => {
    const invoice = await freshInvoice(parseUnits('20', 6))
    const cases = {
      amount: { amount: parseUnits('19', 6) },
      merchant: { merchant: privateKeyToAccount(generatePrivateKey()).address },
      invoiceNumber: { invoiceNumber: invoice.invoiceNumber + 1n },
    }
    for (const [name, pays] of Object.entries(cases)) {
      const payer = await freshPayer()
      const before = await holdings(payer)
      const { userOperation } = await signedPayOperation(payer, invoice, { pays })
      const receipt = await mined(devnet.clients.public, await handleOps(userOperation))
      expect(userOperationEvent(receipt).success, name).toBe(false)
      const [reverted] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationRevertReason', logs: receipt.logs })
      expect(reverted?.args.revertReason, name).toBe(encodeErrorResult({ abi: payerVaultAbi, errorName: 'InvoiceDiffers', args: [invoice.id] }))
      expect(await holdings(payer), name).toEqual(before)
      expect((await readInvoice(invoice.id)).status, name).toBe(status.Issued)
    }
  })

  test('behavior: the message names the registry: one signed for another registry fails validation (AA24) and moves nothing', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('9', 6))
    const before = await holdings(payer)
    const { userOperation } = await signedPayOperation(payer, invoice, { signing: { kind: 'typed', changed: { registry: privateKeyToAccount(generatePrivateKey()).address } } })
    await expect(handleOps(userOperation)).rejects.toThrow(/AA24 signature error/)
    expect(await holdings(payer)).toEqual(before)
  })

  test('behavior: a permit deadline of 0 (which the EntryPoint would read as valid forever) makes no valid payment: validation fails (AA24)', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('9', 6))
    const permit = await signPermit(devnet.clients.public, devnet.deployment, { ...payer, value: invoice.amount, deadline: 0n })
    const { userOperation } = await signedPayOperation(payer, invoice, { permit })
    await expect(handleOps(userOperation)).rejects.toThrow(/AA24 signature error/)
    expect((await readInvoice(invoice.id)).status).toBe(status.Issued)
  })

  test('behavior: a payment pays the fee its payer saw: a rate that took effect after signing (announced three days before) reverts it with FeeDiffers, and nothing moves', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('30', 6))
    const before = await holdings(payer)
    // signed at today's rate, held back while a new one is announced and comes into force
    const permit = await signPermit(devnet.clients.public, devnet.deployment, { ...payer, value: invoice.amount, deadline: (await now()) + 4n * 86_400n })
    const { userOperation } = await signedPayOperation(payer, invoice, { permit })
    await mined(devnet.clients.public, await devnet.clients.wallet.writeContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'setFeeOverride', args: [devnet.seed.merchant.vault, 500] }))
    await devnet.test.increaseTime({ seconds: 3 * 86_400 + 1 })
    await devnet.test.mine({ blocks: 1 })
    const receipt = await mined(devnet.clients.public, await handleOps(userOperation))
    expect(userOperationEvent(receipt).success).toBe(false)
    const [reverted] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationRevertReason', logs: receipt.logs })
    expect(reverted?.args.revertReason).toBe(encodeErrorResult({ abi: payerVaultAbi, errorName: 'FeeDiffers', args: [invoice.id, 100] }))
    expect(await holdings(payer)).toEqual(before)
    expect((await readInvoice(invoice.id)).status).toBe(status.Issued)
    // back to retail for the tests after this one
    await mined(devnet.clients.public, await devnet.clients.wallet.writeContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'setFeeOverride', args: [devnet.seed.merchant.vault, 0] }))
    await devnet.test.increaseTime({ seconds: 3 * 86_400 + 1 })
    await devnet.test.mine({ blocks: 1 })
  })

  test('behavior: a funding permit someone submitted to the token first still pays', async () => {
    const { clients, deployment, seed } = devnet
    const invoice = await freshInvoice(parseUnits('30', 6))
    const payer = await devnet.newPayer(parseUnits('10', 6), parseUnits('50', 6))
    const merchantBefore = await balanceOf(seed.merchant.vault)
    const deadline = (await now()) + 3600n
    const fromWallet = parseUnits('20', 6)
    const fundingPermit = await signFundingPermit(clients.public, deployment, { ...payer, value: fromWallet, deadline })
    const funding: Funding = { from: payer.owner, to: payer.vault, amount: fromWallet, permit: fundingPermit }
    const { userOperation } = await signedPayOperation(payer, invoice, { deadline, funding })

    const frontRunner = devnetClients(devnet.anvil.rpcUrl, deployment.chainId, privateKeyToAccount(generatePrivateKey()))
    await devnet.test.setBalance({ address: frontRunner.wallet.account.address, value: parseUnits('1', 18) })
    await mined(
      clients.public,
      await frontRunner.wallet.writeContract({
        address: deployment.token,
        abi: stablecoinAbi,
        functionName: 'permit',
        args: [payer.owner, payer.vault, fromWallet, deadline, fundingPermit.v, fundingPermit.r, fundingPermit.s],
      }),
    )
    const receipt = await mined(clients.public, await handleOps(userOperation))
    expect(userOperationEvent(receipt).success).toBe(true)
    expect((await readInvoice(invoice.id)).status).toBe(status.Paid)
    expect(await balanceOf(payer.owner)).toBe(parseUnits('30', 6))
    expect(await balanceOf(payer.vault)).toBe(0n)
    expect(await balanceOf(seed.merchant.vault)).toBe(merchantBefore + invoice.amount - invoice.amount / 100n)
  })

  test('behavior: the vault\'s ERC-1271 refuses a signature made for a sibling vault, and any digest outside a payment', async () => {
    const { clients, deployment } = devnet
    const payer = await freshPayer()
    const owner = privateKeyToAccount(payer.ownerPrivateKey)
    const anyone = devnetClients(devnet.anvil.rpcUrl, deployment.chainId, devnetRoles.bundler)
    const createVault = (salt: bigint) => anyone.wallet.writeContract({ address: deployment.vaultFactory, abi: payerVaultFactoryAbi, functionName: 'createAccount', args: [payer.owner, salt] })
    await mined(clients.public, await createVault(0n))
    await mined(clients.public, await createVault(1n))
    const sibling = await clients.public.readContract({ address: deployment.vaultFactory, abi: payerVaultFactoryAbi, functionName: 'getAddress', args: [payer.owner, 1n] })
    expect(sibling).not.toBe(payer.vault)

    const invoice = await freshInvoice(parseUnits('3', 6))
    const deadline = (await now()) + 3600n
    const isValid = (vault: Address, hash: Hex, signature: Hex) =>
      clients.public.readContract({ address: vault, abi: payerVaultAbi, functionName: 'isValidSignature', args: [hash, signature] })
    // outside a payment: neither the vault's own permit digest, nor the sibling's, nor an arbitrary hash
    const ownDigest = await permitDigest(payer.vault, invoice.amount, deadline)
    const siblingDigest = await permitDigest(sibling, invoice.amount, deadline)
    const arbitrary = keccak256(toHex('any digest a dapp might ask for'))
    for (const [name, hash] of Object.entries({ ownDigest, siblingDigest, arbitrary })) {
      const signature = await owner.sign({ hash })
      expect(await isValid(payer.vault, hash, signature), name).not.toBe(erc1271Magic)
      expect(await isValid(sibling, hash, signature), name).not.toBe(erc1271Magic)
    }

    // inside a payment: the sibling's permit, signed by the same owner, does not pay from this vault
    const siblingPermit = await signPermit(clients.public, deployment, { ...payer, vault: sibling, value: invoice.amount, deadline })
    const before = await holdings(payer)
    const { userOperation } = await signedPayOperation(payer, invoice, { permit: siblingPermit })
    const receipt = await mined(clients.public, await handleOps(userOperation))
    expect(userOperationEvent(receipt).success).toBe(false)
    expect(await holdings(payer)).toEqual(before)
    expect((await readInvoice(invoice.id)).status).toBe(status.Issued)
  })

  test('behavior: a personal_sign (EIP-191) signature of the userOpHash no longer validates', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('4', 6))
    const before = await holdings(payer)
    const { userOperation } = await signedPayOperation(payer, invoice, { signing: { kind: 'personal' } })
    await expect(handleOps(userOperation)).rejects.toThrow(/AA24 signature error/)
    expect(await holdings(payer)).toEqual(before)
    expect((await readInvoice(invoice.id)).status).toBe(status.Issued)
  })

  test('behavior: an operation calling execute or executeBatch through the EntryPoint is refused', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('4', 6))
    const thief = privateKeyToAccount(generatePrivateKey()).address
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [thief, demoPayerFunds] })
    const { token } = devnet.deployment
    const calls = {
      execute: encodeFunctionData({ abi: payerVaultAbi, functionName: 'execute', args: [token, 0n, transfer] }),
      executeBatch: encodeFunctionData({ abi: payerVaultAbi, functionName: 'executeBatch', args: [[token], [0n], [transfer]] }),
    }
    const before = await holdings(payer)
    for (const [name, callData] of Object.entries(calls)) {
      for (const signing of [{ kind: 'personal' }, { kind: 'typed' }] as const) {
        const { userOperation } = await signedPayOperation(payer, invoice, { callData, signing })
        await expect(handleOps(userOperation), `${name} ${signing.kind}`).rejects.toThrow(/AA24 signature error/)
      }
    }
    expect(await holdings(payer)).toEqual(before)
    expect(await balanceOf(thief)).toBe(0n)
  })
})

/** A JavaScript tracer (geth's API, which anvil runs) that records, until the EntryPoint emits
 * BeforeExecution, every storage and transient-storage access, every call made and every opcode
 * ERC-7562 forbids in validation (OP-011; GAS only where a call does not follow it, OP-012). */
const validationTracer = `{
  executing: false, out: [], gasAt: null,
  banned: { GASPRICE: 1, GASLIMIT: 1, DIFFICULTY: 1, PREVRANDAO: 1, TIMESTAMP: 1, BASEFEE: 1, BLOCKHASH: 1, NUMBER: 1, ORIGIN: 1, COINBASE: 1, SELFDESTRUCT: 1, BALANCE: 1, SELFBALANCE: 1, BLOBHASH: 1, BLOBBASEFEE: 1, CREATE: 1, INVALID: 1 },
  calls: { CALL: 1, STATICCALL: 1, DELEGATECALL: 1, CALLCODE: 1 },
  step: function (log) {
    if (this.executing) return;
    var op = log.op.toString();
    var address = toHex(log.contract.getAddress());
    if (this.gasAt !== null && !this.calls[op]) this.out.push({ kind: 'banned', op: 'GAS', address: this.gasAt });
    this.gasAt = op === 'GAS' ? address : null;
    if (op === 'LOG1' && log.stack.peek(2).toString(16) === 'bb47ee3e183a558b1a2ff0874b079f3fc5478b7454eacf2bfc5af2ff5878f972') { this.executing = true; return; }
    if (op === 'SLOAD' || op === 'SSTORE' || op === 'TLOAD' || op === 'TSTORE') this.out.push({ kind: 'storage', op: op, address: address, slot: log.stack.peek(0).toString(16) });
    else if (this.calls[op]) this.out.push({ kind: 'call', op: op, address: address, to: log.stack.peek(1).toString(16) });
    else if (this.banned[op]) this.out.push({ kind: 'banned', op: op, address: address });
  },
  fault: function () {},
  result: function () { return this.out; }
}`

type Traced = { kind: 'storage' | 'call' | 'banned'; op: string; address: string; slot?: string; to?: string }

describe('validation stays within ERC-7562', () => {
  test('behavior: validating a payment (counterfactual and deployed vault) touches only the vault\'s own storage, calls only its implementation, ecrecover and the EntryPoint, and runs no banned opcode', async () => {
    // safe mode in the real bundler (alto) cannot run against anvil here, so the rules it would
    // enforce are checked on the EntryPoint's own validation of a mined payment
    const { deployment, clients } = devnet
    const payer = await freshPayer()
    const outsideEntryPoint = (traced: Traced) => traced.address.toLowerCase() !== deployment.entryPoint.toLowerCase()
    for (const vault of ['counterfactual', 'deployed']) {
      const invoice = await freshInvoice(parseUnits('2', 6))
      const hash = await handleOps((await signedPayOperation(payer, invoice)).userOperation)
      await mined(clients.public, hash)
      const traced = (await clients.public.request({
        method: 'debug_traceTransaction' as any,
        params: [hash, { tracer: validationTracer }] as any,
      })) as Traced[]
      // the tracer sees what it is asked to: the EntryPoint itself (exempt) reads the time to judge windows
      expect(traced.some((t) => !outsideEntryPoint(t) && t.kind === 'banned' && t.op === 'TIMESTAMP'), vault).toBe(true)
      const entities = traced.filter(outsideEntryPoint)
      expect(entities.filter((t) => t.kind === 'banned'), vault).toEqual([])
      const storage = entities.filter((t) => t.kind === 'storage')
      expect(storage.length, vault).toBeGreaterThan(0)
      // the vault's owner slot and its proxy's implementation slot, and what its deployment writes
      expect(new Set(storage.map((t) => t.address.toLowerCase())), vault).toEqual(new Set([payer.vault.toLowerCase()]))
      expect(storage.filter((t) => t.op === 'TLOAD' || t.op === 'TSTORE'), vault).toEqual([])
      const callsFromVault = entities.filter((t) => t.kind === 'call' && t.address.toLowerCase() === payer.vault.toLowerCase())
      const callees = new Set(callsFromVault.map((t) => BigInt(`0x${t.to}`)))
      // ecrecover, and the implementation the proxy delegates to
      const implementation = await clients.public.readContract({ address: deployment.vaultFactory, abi: payerVaultFactoryAbi, functionName: 'vaultImplementation' })
      for (const callee of callees) expect([1n, BigInt(implementation), BigInt(deployment.entryPoint)], vault).toContain(callee)
    }
  })
})

describe('gas of a plain sponsored payment', () => {
  test('measure: a counterfactual vault, then the same vault deployed', async () => {
    const payer = await freshPayer()
    const measured: Record<string, { actualGasUsed: bigint; transactionGasUsed: bigint }> = {}
    for (const vault of ['counterfactual', 'deployed']) {
      const invoice = await freshInvoice(parseUnits('12.34', 6))
      const receipt = await mined(devnet.clients.public, await handleOps((await signedPayOperation(payer, invoice)).userOperation))
      const event = userOperationEvent(receipt)
      expect(event.success, vault).toBe(true)
      measured[vault] = { actualGasUsed: event.actualGasUsed, transactionGasUsed: receipt.gasUsed }
    }
    console.log('gas of a plain sponsored payment', measured)
  })
})

/** Re-sponsors and re-signs an operation with another paymaster window. */
async function resignWithWindow(userOperation: UserOperation<'0.7'>, ownerPrivateKey: Hex, validUntil: bigint, message: PaymentMessage) {
  const { deployment } = devnet
  const paymasterData = await signVerifyingPaymasterData(
    devnetRoles.paymasterSigner,
    { ...userOperation, paymaster: deployment.paymaster, paymasterVerificationGasLimit: gas.paymasterVerificationGasLimit, paymasterPostOpGasLimit: 0n },
    { chainId: deployment.chainId, validUntil: Number(validUntil), validAfter: 0 },
  )
  const sponsored = { ...userOperation, paymasterData }
  const hash = getUserOperationHash({ chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7', userOperation: sponsored })
  return { ...sponsored, signature: await signOperation(ownerPrivateKey, hash, { ...message, operation: hash }, { kind: 'typed' }) }
}
