import { parseEther, type Account } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { Deployment } from '../shared/deployment'
import { deployCheckout } from '../deploy/deployCheckout'
import { deployerClients, type DeployerClients } from '../deploy/deployerClients'

export { mined } from '../deploy/deployerClients'

/** anvil's public test mnemonic: these keys are devnet-only and known to everyone. */
const devMnemonic = 'test test test test test test test test test test test junk'

export const devnetRoles = {
  deployer: mnemonicToAccount(devMnemonic, { addressIndex: 0 }),
  bundler: mnemonicToAccount(devMnemonic, { addressIndex: 1 }),
  paymasterSigner: mnemonicToAccount(devMnemonic, { addressIndex: 2 }),
  treasury: mnemonicToAccount(devMnemonic, { addressIndex: 3 }),
  // a third-party bundler in tests (alto) signs with its own accounts: sharing `bundler`'s would race
  // the local executor for nonces
  externalBundlerExecutor: mnemonicToAccount(devMnemonic, { addressIndex: 5 }),
  externalBundlerUtility: mnemonicToAccount(devMnemonic, { addressIndex: 6 }),
}

export type DevnetClients = DeployerClients

export function devnetClients(rpcUrl: string, chainId: number, account: Account = devnetRoles.deployer): DevnetClients {
  // anvil mines on demand: a short polling interval keeps receipts from waiting
  return deployerClients(rpcUrl, chainId, account, { pollingInterval: 50 })
}

/** What `npm run deploy -- --test-token` does, with the devnet's roles: the same CREATE2 addresses a
 * real chain gets for the same arguments. */
export async function deployContracts(clients: DevnetClients): Promise<Deployment> {
  const { deployment } = await deployCheckout(clients, {
    token: 'test',
    paymasterSigner: devnetRoles.paymasterSigner.address,
    treasury: devnetRoles.treasury.address,
    retailFeeBps: 100,
    paymasterFunding: { deposit: parseEther('100'), stake: parseEther('1'), unstakeDelaySec: 86_400 },
  })
  return deployment
}
