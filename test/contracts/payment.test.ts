import { parseEventLogs, parseUnits, type Hex } from 'viem'
import { entryPoint07Abi, getUserOperationHash, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { ownedVerifyingPaymasterAbi } from '../../contracts/artifacts/OwnedVerifyingPaymaster'
import { payUserOperation } from '../../shared/payUserOperation'
import { signVerifyingPaymasterData, verifyingPaymasterHash } from '../../shared/verifyingPaymaster'
import { devnetClients, devnetRoles, mined } from '../../devnet/deploy'
import { demoPayerFunds } from '../../devnet/seed'
import { signPermit, useDevnet } from '../support/devnet'

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

/** Everything a payer and the server do before submission: permit, operation, sponsorship, signature. */
async function signedPayOperation(
  payer: { vault: `0x${string}`; owner: `0x${string}`; ownerPrivateKey: Hex },
  invoice: { id: bigint; amount: bigint },
  { deadline, permit }: { deadline?: bigint; permit?: Awaited<ReturnType<typeof signPermit>> } = {},
) {
  const { deployment, clients } = devnet
  const permitDeadline = deadline ?? (await now()) + 3600n
  const signedPermit =
    permit ?? (await signPermit(clients.public, deployment, { ...payer, value: invoice.amount, deadline: permitDeadline }))
  const code = await clients.public.getCode({ address: payer.vault })
  const nonce = await clients.public.readContract({
    address: deployment.entryPoint,
    abi: entryPoint07Abi,
    functionName: 'getNonce',
    args: [payer.vault, 0n],
  })
  const unsponsored = payUserOperation({
    deployment,
    invoiceId: invoice.id,
    vault: payer.vault,
    owner: payer.owner,
    vaultDeployed: !!code && code !== '0x',
    nonce,
    permit: signedPermit,
    gas,
    paymasterData: '0x',
    signature: '0x',
  })
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
  const signature = await privateKeyToAccount(payer.ownerPrivateKey).signMessage({ message: { raw: userOpHash } })
  return { userOperation: { ...userOperation, signature }, userOpHash, permit: signedPermit }
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

  test('behavior: a permit submitted first by someone else does not block the payment', async () => {
    const { clients, deployment, seed } = devnet
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('99.99', 6))
    const merchantBefore = await balanceOf(seed.merchant.vault)
    const { userOperation } = await signedPayOperation(payer, invoice)

    // a front-runner copies the permit out of the pending operation; the vault must exist for
    // ERC-1271 so the front-runner deploys it too (anyone can)
    const frontRunner = devnetClients(devnet.anvil.rpcUrl, deployment.chainId, privateKeyToAccount(generatePrivateKey()))
    await devnet.test.setBalance({ address: frontRunner.wallet.account.address, value: parseUnits('1', 18) })
    await mined(clients.public, await frontRunner.wallet.sendTransaction({ to: userOperation.factory!, data: userOperation.factoryData! }))
    const permit = await signPermit(clients.public, deployment, { ...payer, value: invoice.amount, deadline: (await now()) + 3600n })
    await mined(
      clients.public,
      await frontRunner.wallet.writeContract({
        address: deployment.token,
        abi: stablecoinAbi,
        functionName: 'permit',
        args: [payer.vault, deployment.registry, invoice.amount, permit.deadline, permit.v, permit.r, permit.s],
      }),
    )
    expect(await clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'allowance', args: [payer.vault, deployment.registry] })).toBe(invoice.amount)

    // the operation was built for an undeployed vault: rebuild it as it would be now, with the same permit
    const { userOperation: current } = await signedPayOperation(payer, invoice, { permit })
    await mined(clients.public, await handleOps(current))
    expect((await readInvoice(invoice.id)).status).toBe(status.Paid)
    expect(await balanceOf(seed.merchant.vault)).toBe(merchantBefore + invoice.amount - invoice.amount / 100n)
  })

  test('behavior: an expired permit leaves the invoice Issued and the payer untouched', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('10', 6))
    const deadline = (await now()) + 60n
    const { userOperation } = await signedPayOperation(payer, invoice, { deadline })
    await devnet.test.increaseTime({ seconds: 120 })
    await devnet.test.mine({ blocks: 1 })
    // the paymaster's window closes with the permit, so the EntryPoint refuses the operation outright
    await expect(handleOps(userOperation)).rejects.toThrow(/AA32 paymaster expired or not due/)
    expect((await readInvoice(invoice.id)).status).toBe(status.Issued)
    expect(await balanceOf(payer.vault)).toBe(demoPayerFunds)
  })

  test('behavior: an expired permit without an allowance reverts the payment inside the operation', async () => {
    const payer = await freshPayer()
    const invoice = await freshInvoice(parseUnits('10', 6))
    const past = (await now()) - 1n
    const permit = await signPermit(devnet.clients.public, devnet.deployment, { ...payer, value: invoice.amount, deadline: past })
    // sponsor generously (window not tied to the stale permit) to reach the registry itself
    const { userOperation } = await signedPayOperation(payer, invoice, { permit: { ...permit, deadline: past } })
    const patched = await resignWithWindow(userOperation, payer.ownerPrivateKey, (await now()) + 3600n)
    const receipt = await mined(devnet.clients.public, await handleOps(patched))
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(event?.args.success).toBe(false)
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

/** Re-sponsors and re-signs an operation with another paymaster window. */
async function resignWithWindow(userOperation: UserOperation<'0.7'>, ownerPrivateKey: Hex, validUntil: bigint) {
  const { deployment } = devnet
  const paymasterData = await signVerifyingPaymasterData(
    devnetRoles.paymasterSigner,
    { ...userOperation, paymaster: deployment.paymaster, paymasterVerificationGasLimit: gas.paymasterVerificationGasLimit, paymasterPostOpGasLimit: 0n },
    { chainId: deployment.chainId, validUntil: Number(validUntil), validAfter: 0 },
  )
  const sponsored = { ...userOperation, paymasterData }
  const hash = getUserOperationHash({ chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7', userOperation: sponsored })
  return { ...sponsored, signature: await privateKeyToAccount(ownerPrivateKey).signMessage({ message: { raw: hash } }) }
}
