import type { Address, Hex } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { entryPointBytecode } from '../contracts/artifacts/EntryPoint'
import type { DeployerClients } from './deployerClients'
import { create2Address, DeterministicDeploymentError, deployDeterministic, type Step } from './deterministicDeployer'

/** The salt the eth-infinitism release used: with the packaged bytecode it yields 0x0000000071727De2…. */
const entryPointSalt: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'

/** EntryPoint v0.7 at its canonical address, built from the package's artifact through CREATE2 where
 * the chain lacks it. Its constructor creates SenderCreator, so copying runtime code would not do. */
export async function ensureEntryPoint(clients: DeployerClients): Promise<Step<Address>> {
  const predicted = create2Address(entryPointSalt, entryPointBytecode)
  if (predicted !== entryPoint07Address) {
    throw new DeterministicDeploymentError(`the packaged EntryPoint would land at ${predicted}, not ${entryPoint07Address}: the artifact is not the v0.7 release`)
  }
  return deployDeterministic(clients, { salt: entryPointSalt, initCode: entryPointBytecode })
}
