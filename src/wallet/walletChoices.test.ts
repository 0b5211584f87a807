import { describe, expect, test } from 'vitest'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { testDeployment } from '../verify/preparedPayment.fixture'
import { walletChoices } from './walletChoices'

const devnet: PinnedDeployment = testDeployment()
const mainnet: PinnedDeployment = { ...testDeployment(), chainId: 8453 }
const injected = { info: { uuid: 'a', name: 'Rabby', icon: '', rdns: 'io.rabby' }, provider: { request: async () => null } }

describe('walletChoices', () => {
  test('default: the browser wallets, then the devnet wallet on the devnet only', () => {
    expect(walletChoices([injected], devnet, '').map((choice) => choice.kind)).toEqual(['injected', 'devnet'])
    expect(walletChoices([injected], mainnet, '').map((choice) => choice.kind)).toEqual(['injected'])
  })

  test('behavior: WalletConnect is offered only with a project id', () => {
    expect(walletChoices([], { ...mainnet, walletConnectProjectId: 'abc123' }, '').map((choice) => choice.name)).toEqual(['WalletConnect'])
    expect(walletChoices([], mainnet, '')).toEqual([])
  })

  test('behavior: picking a browser wallet opens its own provider', async () => {
    const [choice] = walletChoices([injected], mainnet, '')
    expect(await choice!.open()).toBe(injected.provider)
  })
})
