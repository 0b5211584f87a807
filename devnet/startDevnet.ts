import { devnetChainId } from '../src/config/devnet'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import type { Deployment } from '../shared/deployment'
import { startAnvil, type Anvil, type StartAnvilParameters } from './anvil'
import { deployContracts, devnetClients } from './deploy'
import { verifyPinnedDevnet } from './verifyPinnedDevnet'
import { seedDemo, type Seed } from './seed'

/** `pinned`: the deployment a page must be built with to pay on this devnet (its own RPC). */
export type Devnet = { anvil: Anvil; deployment: Deployment; pinned: PinnedDeployment; seed: Seed }

/** A devnet as its users need it, whoever runs and stops its node. */
export type ReachableDevnet = Omit<Devnet, 'anvil'> & { anvil: Omit<Anvil, 'stop'> }

/** A fresh chain with everything a payment needs, seeded with a demo merchant, invoices and payer. */
export async function startDevnet({ port = 0, chainId = devnetChainId, logFile }: StartAnvilParameters = {}): Promise<Devnet> {
  const anvil = await startAnvil({ port, chainId, logFile })
  try {
    const clients = devnetClients(anvil.rpcUrl, chainId)
    const deployment = await deployContracts(clients)
    const committed = await verifyPinnedDevnet(deployment, clients.public, { compareChainId: chainId === devnetChainId })
    const seed = await seedDemo(anvil.rpcUrl, clients, deployment)
    return { anvil, deployment, pinned: { ...committed, chainId, rpcUrls: [anvil.rpcUrl] }, seed }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
