import { describe, expect, test } from 'vitest'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { testDeployment } from '../verify/preparedPayment.fixture'
import type { Eip1193Provider } from './eip1193'
import { switchChain } from './switchChain'

/** A wallet that knows `chains` and records what it was asked. */
function wallet(chains: number[]) {
  const asked: { method: string; params?: readonly unknown[] }[] = []
  const provider: Eip1193Provider = {
    async request(args) {
      asked.push(args)
      if (args.method === 'wallet_switchEthereumChain') {
        const { chainId } = args.params![0] as { chainId: string }
        if (!chains.includes(Number(chainId))) throw Object.assign(new Error('Unrecognized chain'), { code: 4902 })
      }
      if (args.method === 'wallet_addEthereumChain') chains.push(Number((args.params![0] as { chainId: string }).chainId))
      return null
    },
  }
  return { provider, asked }
}

const deployment: PinnedDeployment = { ...testDeployment(), chainName: 'svc devnet', rpcUrls: ['http://127.0.0.1:8545/'] }

describe('switchChain', () => {
  test('default: asks the wallet to switch to the pinned chain', async () => {
    const { provider, asked } = wallet([1, 31337])
    await switchChain(provider, deployment)
    expect(asked).toEqual([{ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] }])
  })

  test('behavior: a wallet that does not know the chain (4902) is offered it', async () => {
    const { provider, asked } = wallet([1])
    await switchChain(provider, deployment)
    expect(asked[1]).toEqual({
      method: 'wallet_addEthereumChain',
      params: [{ chainId: '0x7a69', chainName: 'svc devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: ['http://127.0.0.1:8545/'] }],
    })
  })

  test('behavior: a refusal is the wallet\'s answer', async () => {
    const refusing: Eip1193Provider = { request: async () => Promise.reject(Object.assign(new Error('User rejected'), { code: 4001 })) }
    await expect(switchChain(refusing, deployment)).rejects.toMatchObject({ code: 4001 })
  })
})
