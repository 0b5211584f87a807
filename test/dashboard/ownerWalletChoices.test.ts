// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'
import { watchOwnerWalletChoices } from '../../dashboard/wallet/ownerWalletChoices'
import { createWagmiWallets } from '../../src/wallet/wagmiWallets'
import type { WalletChoice } from '../../src/wallet/walletChoice'

/** The devnet's deployment: its chain is the devnet's, so the pay page's wallets offer the devnet
 * wallet too, which the owner must never be offered. */
const devnet = readPinnedDeployment()

/** A browser wallet announcing itself by EIP-6963, as an extension does on the page. */
function announceBrowserWallet(name: string) {
  const provider = { request: async () => null, on() {}, removeListener() {} }
  const info = { uuid: crypto.randomUUID(), name, rdns: `test.${name.toLowerCase().replaceAll(' ', '-')}`, icon: 'data:image/svg+xml,%3Csvg/%3E' }
  window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
}

/** The wallets the dashboard offers the owner once discovery has settled, as the buttons name them. */
async function ownerChoicesFor(walletConnectProjectId: string | undefined): Promise<Pick<WalletChoice, 'kind' | 'name'>[]> {
  const { walletConnectProjectId: _none, ...deployment } = devnet
  const wallets = createWagmiWallets(walletConnectProjectId ? { ...deployment, walletConnectProjectId } : deployment, 'http://127.0.0.1')
  announceBrowserWallet('Owner Wallet')
  let latest: WalletChoice[] = []
  const stop = watchOwnerWalletChoices(wallets, (choices) => (latest = choices))
  await expect.poll(() => latest.some((choice) => choice.name === 'Owner Wallet')).toBe(true)
  stop()
  return latest.map(({ kind, name }) => ({ kind, name }))
}

describe("the owner's wallet choices in the dashboard", () => {
  test('behavior: with a WalletConnect project id in the deployment, the owner may connect the browser wallet or a mobile wallet over WalletConnect, and never the devnet wallet', async () => {
    expect(devnet.chainId).toBe(31337)
    expect(await ownerChoicesFor('0123456789abcdef0123456789abcdef')).toEqual([
      { kind: 'injected', name: 'Owner Wallet' },
      { kind: 'walletConnect', name: 'WalletConnect' },
    ])
  })

  test('behavior: without a project id, WalletConnect is not offered: only the browser wallet', async () => {
    expect(await ownerChoicesFor(undefined)).toEqual([{ kind: 'injected', name: 'Owner Wallet' }])
  })
})
