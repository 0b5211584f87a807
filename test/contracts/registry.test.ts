import { decodeErrorResult, parseEventLogs, parseUnits, type Address, type Hex } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { devnetClients, devnetRoles, mined } from '../../devnet/deploy'
import { sendMerchantOperation } from '../../devnet/merchantOperation'
import { createMerchant, issueInvoice, mintTo } from '../../devnet/seed'
import type { MerchantVaultCall } from '../../shared/merchantVaultCall'
import { payDirectly as payDirectlyOn } from '../support/payDirectly'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()
const status = { Issued: 1, Paid: 2, Canceled: 3 } as const

/** One of the merchant vault's operations, its owner signing: what the registry refuses throws its error's name. */
async function asMerchant(merchant: { vault: Address; ownerPrivateKey: Hex }, call: MerchantVaultCall) {
  const owner = privateKeyToAccount(merchant.ownerPrivateKey)
  const outcome = await sendMerchantOperation(devnet.anvil.rpcUrl, devnet.deployment, { vault: merchant.vault, call, signer: { kind: 'owner', privateKey: merchant.ownerPrivateKey }, bundler: owner })
  if (!outcome.success) {
    const [reverted] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationRevertReason', logs: outcome.receipt.logs })
    throw new Error(reverted ? decodeErrorResult({ abi: invoiceRegistryAbi, data: reverted.args.revertReason }).errorName : 'reverted')
  }
  return outcome.receipt
}

const cancel = (invoice: bigint): MerchantVaultCall => ({ kind: 'Cancel', registry: devnet.deployment.registry, invoice })

function readInvoice(id: bigint) {
  return devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
}

async function newInvoice(amount = parseUnits('100', 6), merchant = devnet.seed.merchant) {
  const { timestamp } = await devnet.clients.public.getBlock()
  return issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, merchant, { amount, dueAt: timestamp + 86_400n, metaHash: `0x${'11'.repeat(32)}`, tokenURI: 'ipfs://invoice' })
}

const payDirectly = (id: bigint, amount: bigint) => payDirectlyOn(devnet, id, amount)

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
    await asMerchant(devnet.seed.merchant, cancel(id))
    expect((await readInvoice(id)).status).toBe(status.Canceled)
  })

  test('behavior: only the merchant may cancel', async () => {
    const { id } = await newInvoice()
    const stranger = await createMerchant(devnet.clients, devnet.deployment)
    await expect(asMerchant(stranger, cancel(id))).rejects.toThrow(/NotMerchant/)
    expect((await readInvoice(id)).status).toBe(status.Issued)
  })

  test('behavior: a Canceled invoice can neither be canceled again nor paid', async () => {
    const { id, amount } = await newInvoice()
    await asMerchant(devnet.seed.merchant, cancel(id))
    await expect(asMerchant(devnet.seed.merchant, cancel(id))).rejects.toThrow(/NotIssued/)
    await expect(payDirectly(id, amount)).rejects.toThrow(/NotIssued/)
  })

  test('behavior: a Paid invoice is terminal: cancel and a second pay revert', async () => {
    const { id, amount } = await newInvoice()
    await payDirectly(id, amount)
    expect((await readInvoice(id)).status).toBe(status.Paid)
    await expect(asMerchant(devnet.seed.merchant, cancel(id))).rejects.toThrow(/NotIssued/)
    await expect(payDirectly(id, amount)).rejects.toThrow(/NotIssued/)
  })

  test('behavior: unknown invoices and unaccepted tokens are refused', async () => {
    await expect(readInvoice(999_999n)).rejects.toThrow(/UnknownInvoice/)
    const issue: MerchantVaultCall = { kind: 'Issue', registry: devnet.deployment.registry, token: devnetRoles.treasury.address, amount: 1n, dueAt: 2_000_000_000n, metaHash: `0x${'00'.repeat(32)}`, tokenURI: '' }
    await expect(asMerchant(devnet.seed.merchant, issue)).rejects.toThrow(/TokenNotAccepted/)
  })

  test('behavior: an announced override waits three days (the registry says which rate and when), then applies and reads back; going back to retail waits too', async () => {
    const { clients, deployment, seed } = devnet
    const read = (functionName: 'feeOverrideBps' | 'feeBpsFor') =>
      clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: functionName as 'feeBpsFor', args: [seed.merchant.vault] })
    const change = () => clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'feeChangeFor', args: [seed.merchant.vault] })
    const threeDays = async () => {
      await devnet.test.increaseTime({ seconds: 3 * 86_400 })
      await devnet.test.mine({ blocks: 1 })
    }
    expect(await read('feeOverrideBps')).toBe(0)
    expect(await read('feeBpsFor')).toBe(100)
    expect(await change()).toEqual([0, 0n])

    const announced = await mined(clients.public, await clients.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'setFeeOverride', args: [seed.merchant.vault, 25] }))
    const { timestamp } = await clients.public.getBlock({ blockNumber: announced.blockNumber })
    const [scheduled] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'FeeOverrideScheduled', logs: announced.logs })
    expect(scheduled?.args).toMatchObject({ merchant: seed.merchant.vault, feeBps: 25, effectiveAt: timestamp + 259_200n })
    // a payment in flight when it was announced still pays the rate it was shown
    expect(await read('feeBpsFor')).toBe(100)
    expect(await change()).toEqual([25, timestamp + 259_200n])
    await threeDays()
    expect(await read('feeOverrideBps')).toBe(25)
    expect(await read('feeBpsFor')).toBe(25)
    expect(await change()).toEqual([0, 0n])

    const { id, amount } = await newInvoice(parseUnits('400', 6))
    const merchantBefore = await clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [seed.merchant.vault] })
    const { receipt } = await payDirectly(id, amount)
    const [paid] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoicePaid', logs: receipt.logs })
    expect(paid?.args).toMatchObject({ gross: parseUnits('400', 6), fee: parseUnits('1', 6), net: parseUnits('399', 6), feeBps: 25 })
    const merchantAfter = await clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [seed.merchant.vault] })
    expect(merchantAfter - merchantBefore).toBe(parseUnits('399', 6))

    await mined(clients.public, await clients.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'setFeeOverride', args: [seed.merchant.vault, 0] }))
    expect(await read('feeBpsFor')).toBe(25)
    await threeDays()
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
