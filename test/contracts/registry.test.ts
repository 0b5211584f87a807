import { encodeFunctionData, parseEventLogs, parseUnits, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { devnetClients, devnetRoles, mined } from '../../devnet/deploy'
import { createMerchant, createPayer, issueInvoice, mintTo } from '../../devnet/seed'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()
const status = { Issued: 1, Paid: 2, Canceled: 3 } as const
/** The vault bubbles the registry's revert data up, so decode with both. */
const vaultCallAbi = [...payerVaultAbi, ...invoiceRegistryAbi.filter((item) => item.type === 'error')]

function registryCall(functionName: 'cancel', args: [bigint]): Hex {
  return encodeFunctionData({ abi: invoiceRegistryAbi, functionName, args })
}

/** The merchant's owner drives its vault directly, as the merchant dashboard would through a UserOperation. */
async function asMerchant(merchant: { vault: Address; ownerPrivateKey: Hex }, data: Hex) {
  const { public: client, wallet } = devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId, privateKeyToAccount(merchant.ownerPrivateKey))
  return mined(client, await wallet.writeContract({ address: merchant.vault, abi: vaultCallAbi, functionName: 'execute', args: [devnet.deployment.registry, 0n, data] }))
}

function readInvoice(id: bigint) {
  return devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
}

async function newInvoice(amount = parseUnits('100', 6), merchant = devnet.seed.merchant) {
  const { timestamp } = await devnet.clients.public.getBlock()
  return issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, merchant, { amount, dueAt: timestamp + 86_400n, metaHash: `0x${'11'.repeat(32)}`, tokenURI: 'ipfs://invoice' })
}

/** A payer vault that is deployed and pays with a plain allowance, to test the registry alone. */
async function payDirectly(id: bigint, amount: bigint) {
  const payer = await createPayer(devnet.clients, devnet.deployment, amount)
  const owner = privateKeyToAccount(payer.ownerPrivateKey)
  await devnet.test.setBalance({ address: owner.address, value: parseUnits('1', 18) })
  const { public: client, wallet } = devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId, owner)
  await mined(client, await devnet.clients.wallet.writeContract({ address: devnet.deployment.vaultFactory, abi: [{ type: 'function', name: 'createAccount', stateMutability: 'nonpayable', inputs: [{ name: 'owner', type: 'address' }, { name: 'salt', type: 'uint256' }], outputs: [{ type: 'address' }] }] as const, functionName: 'createAccount', args: [owner.address, 0n] }))
  const approve = encodeFunctionData({ abi: stablecoinAbi, functionName: 'approve', args: [devnet.deployment.registry, amount] })
  await mined(client, await wallet.writeContract({ address: payer.vault, abi: payerVaultAbi, functionName: 'execute', args: [devnet.deployment.token, 0n, approve] }))
  const pay = encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'pay', args: [id, 0n, 0, `0x${'00'.repeat(32)}`, `0x${'00'.repeat(32)}`] })
  const hash = await wallet.writeContract({ address: payer.vault, abi: vaultCallAbi, functionName: 'execute', args: [devnet.deployment.registry, 0n, pay] })
  return { payer, receipt: await mined(client, hash) }
}

describe('InvoiceRegistry', () => {
  test('default: an issued invoice is an ERC-721 owned by the merchant vault with every field stored', async () => {
    const { seed, deployment, clients } = devnet
    const demo = seed.invoices[0]!
    const stored = await readInvoice(demo.id)
    expect(stored).toMatchObject({ merchant: seed.merchant.vault, status: status.Issued, token: deployment.token, amount: demo.amount, invoiceNumber: 1n, dueAt: demo.dueAt, payer: '0x0000000000000000000000000000000000000000' })
    expect(await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'ownerOf', args: [demo.id] })).toBe(seed.merchant.vault)
    const fresh = await newInvoice()
    expect(await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'tokenURI', args: [fresh.id] })).toBe('ipfs://invoice')
    expect(fresh.invoiceNumber).toBe(BigInt(seed.invoices.length + 1))
  })

  test('behavior: invoice numbers run per merchant', async () => {
    const other = await createMerchant(devnet.clients, devnet.deployment)
    expect((await newInvoice(1n, other)).invoiceNumber).toBe(1n)
    expect((await newInvoice(1n, other)).invoiceNumber).toBe(2n)
  })

  test('behavior: the merchant cancels an Issued invoice', async () => {
    const { id } = await newInvoice()
    await asMerchant(devnet.seed.merchant, registryCall('cancel', [id]))
    expect((await readInvoice(id)).status).toBe(status.Canceled)
  })

  test('behavior: only the merchant may cancel', async () => {
    const { id } = await newInvoice()
    const stranger = await createMerchant(devnet.clients, devnet.deployment)
    await expect(asMerchant(stranger, registryCall('cancel', [id]))).rejects.toThrow(/NotMerchant/)
    expect((await readInvoice(id)).status).toBe(status.Issued)
  })

  test('behavior: a Canceled invoice can neither be canceled again nor paid', async () => {
    const { id, amount } = await newInvoice()
    await asMerchant(devnet.seed.merchant, registryCall('cancel', [id]))
    await expect(asMerchant(devnet.seed.merchant, registryCall('cancel', [id]))).rejects.toThrow(/NotIssued/)
    await expect(payDirectly(id, amount)).rejects.toThrow(/NotIssued/)
  })

  test('behavior: a Paid invoice is terminal: cancel and a second pay revert', async () => {
    const { id, amount } = await newInvoice()
    await payDirectly(id, amount)
    expect((await readInvoice(id)).status).toBe(status.Paid)
    await expect(asMerchant(devnet.seed.merchant, registryCall('cancel', [id]))).rejects.toThrow(/NotIssued/)
    await expect(payDirectly(id, amount)).rejects.toThrow(/NotIssued/)
  })

  test('behavior: unknown invoices and unaccepted tokens are refused', async () => {
    await expect(readInvoice(999_999n)).rejects.toThrow(/UnknownInvoice/)
    const issue = encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'issue', args: [devnetRoles.treasury.address, 1n, 2_000_000_000n, `0x${'00'.repeat(32)}`, ''] })
    await expect(asMerchant(devnet.seed.merchant, issue)).rejects.toThrow(/TokenNotAccepted/)
  })

  test('behavior: the retail fee applies until an override is set; the override then applies and reads back', async () => {
    const { clients, deployment, seed } = devnet
    const read = (functionName: 'feeOverrideBps' | 'feeBpsFor') =>
      clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: functionName as 'feeBpsFor', args: [seed.merchant.vault] })
    expect(await read('feeOverrideBps')).toBe(0)
    expect(await read('feeBpsFor')).toBe(100)

    await mined(clients.public, await clients.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'setFeeOverride', args: [seed.merchant.vault, 25] }))
    expect(await read('feeOverrideBps')).toBe(25)
    expect(await read('feeBpsFor')).toBe(25)

    const { id, amount } = await newInvoice(parseUnits('400', 6))
    const merchantBefore = await clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [seed.merchant.vault] })
    const { receipt } = await payDirectly(id, amount)
    const [paid] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoicePaid', logs: receipt.logs })
    expect(paid?.args).toMatchObject({ gross: parseUnits('400', 6), fee: parseUnits('1', 6), net: parseUnits('399', 6), feeBps: 25 })
    const merchantAfter = await clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [seed.merchant.vault] })
    expect(merchantAfter - merchantBefore).toBe(parseUnits('399', 6))

    await mined(clients.public, await clients.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'setFeeOverride', args: [seed.merchant.vault, 0] }))
    expect(await read('feeBpsFor')).toBe(100)
    await expect(
      clients.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'setFeeOverride', args: [seed.merchant.vault, 1_001] }),
    ).rejects.toThrow(/FeeTooHigh/)
  })

  test('behavior: only the faucet mints the devnet stablecoin', async () => {
    const { clients, deployment, seed } = devnet
    await mintTo(clients, deployment, seed.merchant.vault, 1n)
    const stranger = devnetClients(devnet.anvil.rpcUrl, deployment.chainId, devnetRoles.bundler)
    await expect(
      stranger.wallet.writeContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'mint', args: [stranger.wallet.account.address, 1n] }),
    ).rejects.toThrow(/NotFaucet/)
  })
})
