import { devnetChainId } from '../../src/config/devnet'
import type { Deployment } from '../../src/shared/deployment'
import { startAnvil, type Anvil } from './anvil'
import { deployContracts, devnetClients } from './deploy'
import { checkPinnedDevnet } from './pinnedDevnet'
import { seedDemo, type Seed } from './seed'

export type Devnet = { anvil: Anvil; deployment: Deployment; seed: Seed }

/** A fresh chain with everything a payment needs, seeded with a demo merchant, invoices and payer. */
export async function startDevnet({ port = 0, chainId = devnetChainId }: { port?: number; chainId?: number } = {}): Promise<Devnet> {
  const anvil = await startAnvil({ port, chainId })
  try {
    const clients = devnetClients(anvil.rpcUrl, chainId)
    const deployment = await deployContracts(clients)
    checkPinnedDevnet(deployment, { compareChainId: chainId === devnetChainId })
    const seed = await seedDemo(anvil.rpcUrl, clients, deployment)
    return { anvil, deployment, seed }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
