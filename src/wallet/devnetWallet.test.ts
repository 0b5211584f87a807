import { recoverTypedDataAddress, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { typedDataJson } from '../../shared/typedDataJson'
import type { DevnetWalletRequest } from './devnetWalletRequest'
import { devnetWalletProvider } from './devnetWallet'

// anvil's first well-known key: the devnet's, never a real one
const privateKey: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const owner = privateKeyToAccount(privateKey).address
const permit = {
  domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const },
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
// the wallet reads nothing from the node to sign: a request that reached it fails the test
const noNode = (() => Promise.reject(new Error('the node was asked'))) as typeof fetch

describe('devnetWalletProvider', () => {
  test('behavior: each signature is shown to the payer first, field by field, and Reject is the wallet\'s 4001 with nothing signed', async () => {
    const asked: DevnetWalletRequest[] = []
    const wallet = devnetWalletProvider({ privateKey, rpcUrl: 'http://127.0.0.1:1' }, noNode, async (request) => (asked.push(request), false))
    await expect(wallet.request({ method: 'eth_signTypedData_v4', params: [owner, typedDataJson(permit)] })).rejects.toMatchObject({ code: 4001 })
    expect(asked).toEqual([
      {
        kind: 'sign',
        primaryType: 'Permit',
        domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: permit.domain.verifyingContract },
        message: { owner, spender: permit.message.spender, value: '248000000', nonce: '0', deadline: '1900000000' },
      },
    ])
  })

  test('behavior: Approve signs exactly what was shown, with the demo payer\'s key', async () => {
    const wallet = devnetWalletProvider({ privateKey, rpcUrl: 'http://127.0.0.1:1' }, noNode, async () => true)
    const signature = (await wallet.request({ method: 'eth_signTypedData_v4', params: [owner, typedDataJson(permit)] })) as Hex
    expect(await recoverTypedDataAddress({ ...permit, signature })).toBe(owner)
  })
})
