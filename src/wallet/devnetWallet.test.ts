import { recoverTypedDataAddress, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { typedDataJson } from '../../shared/typedDataJson'
import { pinned } from '../config/pinned'
import type { DevnetWalletRequest } from './devnetWalletRequest'
import { devnetWalletProvider } from './devnetWallet'
import { formatMoment } from '../ui/format'

// anvil's first well-known key: the devnet's, never a real one
const privateKey: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const owner = privateKeyToAccount(privateKey).address
const permit = {
  domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: pinned.token },
  types: {
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  },
  primaryType: 'Permit' as const,
  message: { owner, spender: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' as const, value: 248_000_000n, nonce: 0n, deadline: 1_900_000_000n },
}
// the wallet reads nothing from the node to sign a permit of the pinned token: a request that reached it fails the test
const noNode = (() => Promise.reject(new Error('the node was asked'))) as typeof fetch

describe('devnetWalletProvider', () => {
  test('behavior: each signature is shown to the payer first, in its descriptor\'s lines, and Reject is the wallet\'s 4001 with nothing signed', async () => {
    const asked: DevnetWalletRequest[] = []
    const wallet = devnetWalletProvider({ privateKey, rpcUrl: 'http://127.0.0.1:1' }, noNode, async (request) => (asked.push(request), false))
    await expect(wallet.request({ method: 'eth_signTypedData_v4', params: [owner, typedDataJson(permit)] })).rejects.toMatchObject({ code: 4001 })
    expect(asked).toEqual([
      {
        kind: 'sign',
        intent: 'Authorize spending of tokens',
        warning: null,
        rows: [
          ['Spender', permit.message.spender],
          // the amount and the deadline as the English pay page writes them, the deadline in this machine's time zone
          ['Amount', '248.00 USDC'],
          ['Valid until', formatMoment(1_900_000_000_000, 'en')],
        ],
        typedData: typedDataJson(permit),
      },
    ])
  })

  test('behavior: a request no descriptor describes is shown field by field under a warning', async () => {
    const asked: DevnetWalletRequest[] = []
    // another token's permit: the node says the contract is no proxy
    const node = (async () => Response.json({ jsonrpc: '2.0', id: 1, result: `0x${'0'.repeat(64)}` })) as unknown as typeof fetch
    const wallet = devnetWalletProvider({ privateKey, rpcUrl: 'http://127.0.0.1:1' }, node, async (request) => (asked.push(request), false))
    const other = { ...permit, domain: { ...permit.domain, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const } }
    await expect(wallet.request({ method: 'eth_signTypedData_v4', params: [owner, typedDataJson(other)] })).rejects.toMatchObject({ code: 4001 })
    expect(asked).toEqual([
      {
        kind: 'sign',
        intent: null,
        warning: 'noDescription',
        rows: [
          ['domain.name', 'USD Coin'],
          ['domain.version', '2'],
          ['domain.chainId', '31337'],
          ['domain.verifyingContract', other.domain.verifyingContract],
          ['type', 'Permit'],
          ['owner', owner],
          ['spender', permit.message.spender],
          ['value', '248000000'],
          ['nonce', '0'],
          ['deadline', '1900000000'],
        ],
        typedData: typedDataJson(other),
      },
    ])
  })

  test('behavior: opened by a German page, the wallet writes the amount and the deadline as that page does, to the last base unit, and keeps the descriptor\'s own words', async () => {
    const asked: DevnetWalletRequest[] = []
    const wallet = devnetWalletProvider({ privateKey, rpcUrl: 'http://127.0.0.1:1' }, noNode, async (request) => (asked.push(request), false), { tag: 'de-DE' })
    const odd = { ...permit, message: { ...permit.message, value: 248_000_001n } }
    for (const typedData of [permit, odd]) await expect(wallet.request({ method: 'eth_signTypedData_v4', params: [owner, typedDataJson(typedData)] })).rejects.toMatchObject({ code: 4001 })
    expect(asked.map(({ intent, rows }) => [intent, ...rows.map(([label, value]) => `${label}: ${value}`)])).toEqual([
      ['Authorize spending of tokens', `Spender: ${permit.message.spender}`, 'Amount: 248,00 USDC', `Valid until: ${formatMoment(1_900_000_000_000, 'de-DE')}`],
      ['Authorize spending of tokens', `Spender: ${permit.message.spender}`, 'Amount: 248,000001 USDC', `Valid until: ${formatMoment(1_900_000_000_000, 'de-DE')}`],
    ])
    // a German date, not the English one
    expect(formatMoment(1_900_000_000_000, 'de-DE')).toMatch(/^\d{2}\.\d{2}\.2030, \d{2}:\d{2}$/)
  })

  test('behavior: opened by an Arabic page, the amount is isolated left to right with its symbol, as that page writes money among right-to-left words', async () => {
    const asked: DevnetWalletRequest[] = []
    const wallet = devnetWalletProvider({ privateKey, rpcUrl: 'http://127.0.0.1:1' }, noNode, async (request) => (asked.push(request), false), { tag: 'ar-u-nu-latn' })
    await expect(wallet.request({ method: 'eth_signTypedData_v4', params: [owner, typedDataJson(permit)] })).rejects.toMatchObject({ code: 4001 })
    expect(asked[0]?.rows[1]).toEqual(['Amount', '\u2066248.00\u00a0USDC\u2069'])
  })

  test('behavior: Approve signs exactly what was shown, with the demo payer\'s key', async () => {
    const wallet = devnetWalletProvider({ privateKey, rpcUrl: 'http://127.0.0.1:1' }, noNode, async () => true)
    const signature = (await wallet.request({ method: 'eth_signTypedData_v4', params: [owner, typedDataJson(permit)] })) as Hex
    expect(await recoverTypedDataAddress({ ...permit, signature })).toBe(owner)
  })
})
