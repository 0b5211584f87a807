// @vitest-environment happy-dom
import { permitTypes } from '../../src/shared/permit'
import { afterEach, describe, expect, test } from 'vitest'
import { createWalletBridge, type WalletBridge } from '../../embed/walletBridge'

const owner = '0x1111111111111111111111111111111111111111'
const userOpHash = `0x${'0e'.repeat(32)}`

/** The typed data the widget has the wallet sign (createWalletSession), as JSON. */
function permit({
  chainId = 31337 as unknown,
  primaryType = 'Permit',
  permitFields = [] as { name: string; type: string }[],
  domainType = ['name', 'version', 'chainId', 'verifyingContract'],
} = {}) {
  const types: Record<string, string> = { name: 'string', version: 'string', chainId: 'uint256', verifyingContract: 'address' }
  return JSON.stringify({
    domain: { name: 'USD Coin', version: '2', chainId, verifyingContract: '0x2222222222222222222222222222222222222222' },
    types: {
      EIP712Domain: domainType.map((name) => ({ name, type: types[name] })),
      Permit: [...permitTypes.Permit, ...permitFields],
    },
    primaryType,
    message: { owner, spender: '0x3333333333333333333333333333333333333333', value: '248000000', nonce: '0', deadline: '1768482000' },
  })
}

let bridge: WalletBridge | undefined

/** The host page with one EIP-6963 wallet on chain 31337 that records what reaches it. */
function hostWithWallet() {
  const asked: { method: string; params?: unknown[] }[] = []
  const provider = {
    async request(args: { method: string; params?: unknown[] }) {
      asked.push(args)
      return args.method === 'eth_chainId' ? '0x7a69' : '0xsigned'
    },
  }
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { uuid: 'u1', name: 'W', icon: '', rdns: 'x.w' }, provider } }))
  window.addEventListener('eip6963:requestProvider', announce)
  bridge = createWalletBridge(
    () => {},
    () => {},
  )
  window.removeEventListener('eip6963:requestProvider', announce)
  const signed = () => asked.filter(({ method }) => method !== 'eth_chainId')
  return { bridge, signed }
}

/** The RPC error code a refused request fails with. */
function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => 'relayed',
    (error: { code?: number }) => error.code,
  )
}

afterEach(() => bridge?.destroy())

describe('the wallet bridge', () => {
  test('default: relays what a payment signs: the operation hash and a permit on the wallet\'s chain', async () => {
    const { bridge, signed } = hostWithWallet()
    expect(await bridge.request('u1', 'personal_sign', [userOpHash, owner])).toBe('0xsigned')
    expect(await bridge.request('u1', 'eth_signTypedData_v4', [owner, permit()])).toBe('0xsigned')
    expect(await bridge.request('u1', 'eth_signTypedData_v4', [owner, permit({ chainId: '0x7a69' })])).toBe('0xsigned')
    expect(signed()).toEqual([
      { method: 'personal_sign', params: [userOpHash, owner] },
      { method: 'eth_signTypedData_v4', params: [owner, permit()] },
      { method: 'eth_signTypedData_v4', params: [owner, permit({ chainId: '0x7a69' })] },
    ])
  })

  test('behavior: personal_sign of anything but a 32-byte hash is refused before the wallet sees it', async () => {
    const { bridge, signed } = hostWithWallet()
    for (const message of ['0x4c6f67696e20746f2073686f702e6578616d706c65', 'Log in to shop.example', `${userOpHash}00`, userOpHash.slice(2)]) {
      expect(await refusal(bridge.request('u1', 'personal_sign', [message, owner]))).toBe(4100)
    }
    // the owner where the message goes: some wallets swap the two
    expect(await refusal(bridge.request('u1', 'personal_sign', [owner, userOpHash]))).toBe(4100)
    expect(signed()).toEqual([])
  })

  test.each([
    ['another chain', permit({ chainId: 1 })],
    ['no chain', permit({ chainId: null })],
    ['a domain type without chainId', permit({ domainType: ['name', 'version', 'verifyingContract'] })],
    ['another primary type', permit({ primaryType: 'PermitSingle' })],
    ['extra permit fields', permit({ permitFields: [{ name: 'extra', type: 'bytes' }] })],
    ['not JSON', '{"primaryType":'],
  ])('behavior: typed data with %s is refused before the wallet sees it', async (_, typedData) => {
    const { bridge, signed } = hostWithWallet()
    expect(await refusal(bridge.request('u1', 'eth_signTypedData_v4', [owner, typedData]))).toBe(4100)
    expect(signed()).toEqual([])
  })

  test('behavior: typed data with an extra struct type is refused', async () => {
    const { bridge, signed } = hostWithWallet()
    const typed = JSON.parse(permit()) as { types: Record<string, unknown> }
    typed.types.Order = [{ name: 'id', type: 'uint256' }]
    expect(await refusal(bridge.request('u1', 'eth_signTypedData_v4', [owner, JSON.stringify(typed)]))).toBe(4100)
    expect(signed()).toEqual([])
  })

  test('behavior: the wallet signs the typed data as checked, re-encoded: a repeated key cannot show it something else', async () => {
    const { bridge, signed } = hostWithWallet()
    const repeated = permit().replace('"primaryType":"Permit"', '"primaryType":"Order","primaryType":"Permit"')
    await bridge.request('u1', 'eth_signTypedData_v4', [owner, repeated])
    expect(signed()).toEqual([{ method: 'eth_signTypedData_v4', params: [owner, permit()] }])
  })

  test('behavior: wallet_addEthereumChain is not relayed; switching is', async () => {
    const { bridge, signed } = hostWithWallet()
    const chain = { chainId: '0x7a69', chainName: 'x', rpcUrls: ['https://rpc.evil.example'], nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 } }
    expect(await refusal(bridge.request('u1', 'wallet_addEthereumChain', [chain]))).toBe(4200)
    expect(await refusal(bridge.request('u1', 'wallet_switchEthereumChain', [{ chainId: '0x7a69' }]))).toBe('relayed')
    expect(signed()).toEqual([{ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] }])
  })
})
