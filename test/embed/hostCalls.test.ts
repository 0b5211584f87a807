// @vitest-environment happy-dom
import { createPublicClient, http, numberToHex, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { createWalletBridge, type WalletBridge } from '../../embed/walletBridge'
import { paymentCalls } from '../../src/flow/smartWallet/paymentCalls'
import { sendCallsRequest } from '../../src/wallet/sendPaymentCalls'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()
const paymasterServiceUrl = 'http://127.0.0.1:8787/v1/paymaster'
let bridge: WalletBridge | undefined
afterEach(() => bridge?.destroy())

/** The host page with one EIP-6963 smart wallet: its account, reads that go to the devnet's anvil, and
 * every batch request it was asked to run (what a refusal must leave empty). */
function hostSmartWallet(account: Address, { chainId = devnet.deployment.chainId } = {}) {
  const node = createPublicClient({ transport: http(devnet.anvil.rpcUrl) })
  const batches: unknown[] = []
  const provider = {
    async request({ method, params = [] }: { method: string; params?: unknown[] }) {
      if (method === 'eth_chainId') return numberToHex(chainId)
      if (method === 'eth_accounts') return [account]
      if (method === 'wallet_getCapabilities') return { [numberToHex(chainId)]: { atomic: { status: 'supported' }, paymasterService: { supported: true } } }
      if (method === 'wallet_sendCalls') {
        batches.push(params[0])
        return { id: `0x${batches.length.toString(16).padStart(64, '0')}` }
      }
      if (method === 'wallet_getCallsStatus') return { version: '2.0.0', id: params[0], status: 100, atomic: true }
      return node.request({ method, params } as never)
    },
  }
  window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { uuid: 's1', name: 'S', icon: '', rdns: 'x.s' }, provider } }))
  return { batches }
}

async function mounted(amount = 248_000_000n, options: { chainId?: number } = {}) {
  const { id } = await devnet.newInvoice(amount)
  bridge = createWalletBridge({ deployment: devnet.pinned, invoiceId: id.toString(), paymasterServiceUrl, onChange() {}, onEvent() {} })
  const account = privateKeyToAccount(generatePrivateKey()).address
  const wallet = hostSmartWallet(account, options)
  /** The request the widget sends for `calls` (src/wallet/sendPaymentCalls.ts). */
  const request = (overrides: Record<string, unknown> = {}, calls = paymentCalls({ deployment: devnet.pinned, invoiceId: id, amount })) => ({
    ...sendCallsRequest({ from: account, chainId: devnet.deployment.chainId, calls, paymasterServiceUrl }),
    ...overrides,
  })
  return { id, bridge, account, request, ...wallet }
}

function outcome(promise: Promise<unknown>) {
  return promise.then(
    () => 'relayed',
    (error: { code?: number }) => error.code,
  )
}

describe('the wallet bridge, a smart wallet\'s batch (EIP-5792)', () => {
  test('default: relays the capabilities, this invoice\'s batch as the host rebuilt it, and the status of that batch only', async () => {
    const { bridge, account, request, batches } = await mounted()
    expect(await bridge.request('s1', 'wallet_getCapabilities', [account, [numberToHex(devnet.deployment.chainId)]])).toEqual({
      [numberToHex(devnet.deployment.chainId)]: { atomic: { status: 'supported' }, paymasterService: { supported: true } },
    })
    const answer = (await bridge.request('s1', 'wallet_sendCalls', [request()])) as { id: string }
    expect(batches).toEqual([request()])
    expect(await bridge.request('s1', 'wallet_getCallsStatus', [answer.id])).toEqual({ version: '2.0.0', id: answer.id, status: 100, atomic: true })
    expect(await outcome(bridge.request('s1', 'wallet_getCallsStatus', [`0x${'ab'.repeat(32)}`]))).toBe(4100)
  })

  test('behavior: refuses, with nothing sent to the wallet, any batch but exactly this invoice\'s payment from the wallet\'s account', async () => {
    const amount = 248_000_000n
    const { id, bridge, request, batches } = await mounted(amount)
    const calls = (invoiceId: bigint, value: bigint) => paymentCalls({ deployment: devnet.pinned, invoiceId, amount: value })
    const [approve, pay] = calls(id, amount)
    const otherSpender = { ...approve!, data: approve!.data.replace(devnet.deployment.registry.slice(2).toLowerCase(), 'ee'.repeat(20)) as `0x${string}` }
    for (const refused of [
      request({}, calls(id, amount + 1n)),
      request({}, [...calls(id, amount), approve!]),
      request({}, [pay!]),
      request({}, [otherSpender, pay!]),
      request({}, calls(id + 1n, amount)),
      request({}, [{ ...approve!, to: devnet.deployment.registry }, pay!]),
      request({ atomicRequired: false }),
      request({ version: '1.0' }),
      request({ chainId: '0x1' }),
      request({ from: privateKeyToAccount(generatePrivateKey()).address }),
      request({ capabilities: { paymasterService: { url: 'https://paymaster.example/rpc', optional: false } } }),
      request({ capabilities: { paymasterService: { url: paymasterServiceUrl, optional: true } } }),
      request({ capabilities: {} }),
      'not a batch',
    ]) {
      expect(await outcome(bridge.request('s1', 'wallet_sendCalls', [refused]))).toBe(4100)
    }
    expect(batches).toEqual([])
  })

  test('behavior: refuses the batch of an invoice the chain shows canceled, and a wallet on another chain', async () => {
    const { id, bridge, request, batches } = await mounted()
    await devnet.cancelInvoice(id)
    expect(await outcome(bridge.request('s1', 'wallet_sendCalls', [request()]))).toBe(4100)
    bridge.destroy()
    const elsewhere = await mounted(248_000_000n, { chainId: 1 })
    expect(await outcome(elsewhere.bridge.request('s1', 'wallet_sendCalls', [elsewhere.request()]))).toBe(4100)
    expect([...batches, ...elsewhere.batches]).toEqual([])
  })
})
