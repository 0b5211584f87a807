import { encodeFunctionData, toEventSelector, zeroHash, type AbiEvent, type Hex } from 'viem'
import { entryPoint06Abi, entryPoint07Abi } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { mined } from '../../devnet/deploy'
import { mintTo } from '../../devnet/seed'
import { confirmPaid, readPaid, userOperationEventTopic } from '../../embed/confirmPaid'
import { pinnedRpcProvider } from '../../src/chain/rpcProvider'
import { useDevnet } from '../support/devnet'

// The host's check of a frame's `paid`, against a real chain through the pinned RPC provider the
// module builds (embed/hostPaid.ts): what a compromised checkout frame can claim, and what it gets.

const devnet = useDevnet()
const amount = 12_000_000n
const chain = () => pinnedRpcProvider({ urls: devnet.pinned.rpcUrls, chainId: devnet.pinned.chainId })

/** Pays invoice `id` straight from the devnet's deployer account (approve, then the registry's pay). */
async function pay(id: bigint): Promise<Hex> {
  const { public: client, wallet } = devnet.clients
  await mintTo(devnet.clients, devnet.deployment, wallet.account.address, amount)
  await mined(client, await wallet.writeContract({ address: devnet.deployment.token, abi: stablecoinAbi, functionName: 'approve', args: [devnet.deployment.registry, amount] }))
  const hash = await wallet.sendTransaction({
    to: devnet.deployment.registry,
    data: encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'pay', args: [id, 0n, 0, zeroHash, zeroHash] }),
  })
  await mined(client, hash)
  return hash
}

async function paidInvoice() {
  const { id } = await devnet.newInvoice(amount)
  return { invoiceId: id.toString(), txHash: await pay(id) }
}

describe('confirmPaid', () => {
  test('default: a paid the chain shows is passed on as the chain has it', async () => {
    const { invoiceId, txHash } = await paidInvoice()
    expect(await confirmPaid(chain(), devnet.pinned, { invoiceId, userOpHash: '', txHash }, { retries: 0 })).toEqual({ invoiceId, userOpHash: '', txHash })
  })

  test('behavior: a paid without its transaction gets the one the registry\'s own event names', async () => {
    const { invoiceId, txHash } = await paidInvoice()
    expect(await readPaid(chain(), devnet.pinned, { invoiceId, userOpHash: '', txHash: '' })).toEqual({ invoiceId, userOpHash: '', txHash })
  })

  test('behavior: a paid invoice with an invented transaction, or another invoice\'s payment, is refused', async () => {
    const { invoiceId } = await paidInvoice()
    const other = await paidInvoice()
    expect(await readPaid(chain(), devnet.pinned, { invoiceId, userOpHash: '', txHash: other.txHash })).toBe('noPaymentEvent')
    // a hash that is no transaction: perhaps not mined yet, so it is looked at again, then refused
    expect(await confirmPaid(chain(), devnet.pinned, { invoiceId, userOpHash: '', txHash: `0x${'ee'.repeat(32)}` }, { retries: 1, delayMs: 10 })).toBe('notYet')
    // a transaction of the chain's that touched nothing of the registry's
    const { public: client, wallet } = devnet.clients
    const transfer = await wallet.writeContract({ address: devnet.deployment.token, abi: stablecoinAbi, functionName: 'approve', args: [devnet.deployment.registry, 0n] })
    await mined(client, transfer)
    expect(await readPaid(chain(), devnet.pinned, { invoiceId, userOpHash: '', txHash: transfer })).toBe('noPaymentEvent')
  })

  test('behavior: an operation hash the transaction does not carry is refused', async () => {
    const { invoiceId, txHash } = await paidInvoice()
    expect(await readPaid(chain(), devnet.pinned, { invoiceId, userOpHash: `0x${'0a'.repeat(32)}`, txHash })).toBe('otherOperation')
  })

  test('behavior: an invoice the registry does not record as paid is refused: open (after looking again), canceled, unknown', async () => {
    const open = await devnet.newInvoice(amount)
    const canceled = await devnet.newInvoice(amount)
    await devnet.cancelInvoice(canceled.id)
    const { txHash } = await paidInvoice()
    const claim = (id: bigint) => ({ invoiceId: id.toString(), userOpHash: '', txHash })
    expect(await confirmPaid(chain(), devnet.pinned, claim(open.id), { retries: 1, delayMs: 10 })).toBe('notYet')
    expect(await readPaid(chain(), devnet.pinned, claim(canceled.id))).toBe('notPaid')
    expect(await readPaid(chain(), devnet.pinned, claim(10n ** 9n))).toBe('notPaid')
  })

  test('behavior: a paid the pinned RPC does not show yet is confirmed once it does', async () => {
    const { id } = await devnet.newInvoice(amount)
    const seen = confirmPaid(chain(), devnet.pinned, { invoiceId: id.toString(), userOpHash: '', txHash: '' }, { retries: 20, delayMs: 100 })
    const txHash = await pay(id)
    expect(await seen).toEqual({ invoiceId: id.toString(), userOpHash: '', txHash })
  })

  test('behavior: an RPC that answers for another chain is not believed', async () => {
    const { invoiceId, txHash } = await paidInvoice()
    const elsewhere = pinnedRpcProvider({ urls: devnet.pinned.rpcUrls, chainId: devnet.pinned.chainId + 1 })
    expect(await confirmPaid(elsewhere, devnet.pinned, { invoiceId, userOpHash: '', txHash }, { retries: 0 })).toBe('notYet')
  })

  test('behavior: the UserOperationEvent topic is the EntryPoints\' own, v0.7 and v0.6', () => {
    for (const abi of [entryPoint07Abi, entryPoint06Abi]) {
      const event = abi.find((item) => item.type === 'event' && item.name === 'UserOperationEvent')
      expect(toEventSelector(event as AbiEvent)).toBe(userOperationEventTopic)
    }
  })
})
